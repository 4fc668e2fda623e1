package io.statesync.connect;

import static io.statesync.agent.AgentTestSupport.correction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.schemas.Values;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpCorrectionSinkTaskTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final FakeActuator actuator = new FakeActuator();
    private final List<SinkRecord> deadLettered = new ArrayList<>();
    private final HttpCorrectionSinkTask task = new HttpCorrectionSinkTask();

    HttpCorrectionSinkTaskTest() throws Exception {
    }

    @AfterEach
    void stop() {
        task.stop();
        actuator.close();
    }

    @Test
    void shouldPostACreateWithTheDesiredSpecToTheTemplatedUrl() throws Exception {
        start(Map.of(), true);
        Correction c = correction("WebApp/default/shop", Action.CREATE, 1, Map.of("replicas", 2));

        task.put(List.of(record(c)));

        FakeActuator.Request r = actuator.writes().get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/apis/WebApp/default/shop");
        assertThat(JSON.readTree(r.body())).isEqualTo(JSON.readTree("{\"replicas\":2}"));
        assertThat(r.header("X-Statesync-Command-Id")).isEqualTo(c.getCommandId());
        assertThat(r.header("X-Statesync-Generation")).isEqualTo("1");
    }

    @Test
    void shouldPutAnUpdateAndDeleteADelete() {
        start(Map.of(), true);

        task.put(List.of(record(correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 5))),
            record(correction("WebApp/default/shop", Action.DELETE, 2, null))));

        assertThat(actuator.writes()).extracting(FakeActuator.Request::method).containsExactly("PUT", "DELETE");
        assertThat(actuator.items).isEmpty();
    }

    @Test
    void shouldSendTheFieldPatchWhenUpdatesArePatches() throws Exception {
        actuator.failNext.add(200); // the fake refuses PATCH; answer this one with 200
        start(Map.of(HttpCorrectionSinkConfig.UPDATE_METHOD, "PATCH"), true);
        Correction c = correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 5));
        c.setPatch(List.of(new FieldOp(FieldOpType.SET, List.of("replicas"), Values.fromJava(5)),
            new FieldOp(FieldOpType.REMOVE, List.of("env", "DEBUG"), null)));

        task.put(List.of(record(c)));

        FakeActuator.Request r = actuator.writes().get(0);
        assertThat(r.method()).isEqualTo("PATCH");
        assertThat(JSON.readTree(r.body())).isEqualTo(JSON.readTree(
            "[{\"op\":\"SET\",\"path\":[\"replicas\"],\"value\":5},{\"op\":\"REMOVE\",\"path\":[\"env\",\"DEBUG\"]}]"));
    }

    @Test
    void shouldSendTheConfiguredAuthHeader() {
        start(Map.of(HttpCorrectionSinkConfig.AUTH_HEADER_VALUE, "Bearer s3cret"), true);

        task.put(List.of(record(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()))));

        assertThat(actuator.writes().get(0).header("Authorization")).isEqualTo("Bearer s3cret");
    }

    @Test
    void shouldRetryServerErrorsUntilTheActuatorAccepts() {
        actuator.failNext.add(503);
        actuator.failNext.add(500);
        start(Map.of(), true);

        task.put(List.of(record(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()))));

        assertThat(actuator.writes()).hasSize(3);
        assertThat(actuator.items).containsKey("WebApp/default/shop");
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void shouldDeadLetterACorrectionOnceRetriesAreSpent() {
        for (int i = 0; i < 3; i++) {
            actuator.failNext.add(503);
        }
        start(Map.of(HttpCorrectionSinkConfig.MAX_RETRIES, "2"), true);
        SinkRecord failing = record(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));
        SinkRecord next = record(correction("WebApp/default/blog", Action.CREATE, 1, Map.of()));

        task.put(List.of(failing, next));

        assertThat(deadLettered).containsExactly(failing);
        assertThat(actuator.items).containsOnlyKeys("WebApp/default/blog");
    }

    @Test
    void shouldNotRetryARequestTheActuatorRejects() {
        actuator.failNext.add(400);
        start(Map.of(), true);

        task.put(List.of(record(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()))));

        assertThat(actuator.writes()).hasSize(1);
        assertThat(deadLettered).hasSize(1);
    }

    @Test
    void shouldThrowWhenTheWorkerHasNoDeadLetterReporter() {
        actuator.failNext.add(400);
        start(Map.of(), false);

        assertThatThrownBy(() -> task.put(List.of(record(correction("WebApp/default/shop", Action.CREATE, 1,
            Map.of()))))).isInstanceOf(ConnectException.class).hasMessageContaining("not delivered");
    }

    private void start(Map<String, String> overrides, boolean withReporter) {
        Map<String, String> props = new HashMap<>(Map.of(
            HttpCorrectionSinkConfig.URL_TEMPLATE, actuator.urlTemplate(),
            HttpCorrectionSinkConfig.RETRY_BACKOFF_MS, "1"));
        props.putAll(overrides);
        ErrantRecordReporter reporter = (record, error) -> {
            deadLettered.add((SinkRecord) record);
            return CompletableFuture.completedFuture(null);
        };
        task.initialize((SinkTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {SinkTaskContext.class},
            (proxy, method, args) -> method.getName().equals("errantRecordReporter") && withReporter ? reporter : null));
        task.start(props);
    }

    private static long offset;

    private static SinkRecord record(Correction c) {
        return new SinkRecord("statesync.corrections", 0, null, c.getKind() + "/" + c.getNamespace() + "/"
            + c.getName(), null, c, offset++);
    }
}
