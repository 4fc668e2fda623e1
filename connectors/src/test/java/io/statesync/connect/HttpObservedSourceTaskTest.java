package io.statesync.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpObservedSourceTaskTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final FakeActuator api = new FakeActuator();

    HttpObservedSourceTaskTest() throws Exception {
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void shouldMapListedItemsToObservedStateThroughThePointers() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{\"replicas\":2}"));
        HttpObservedSourceTask task = start(null);

        List<SourceRecord> records = task.poll();

        assertThat(records).hasSize(1);
        assertThat(records.get(0).key()).isEqualTo("WebApp/default/shop");
        ObservedState report = (ObservedState) records.get(0).value();
        assertThat(report.getKind()).isEqualTo("WebApp");
        assertThat(report.getName()).isEqualTo("shop");
        assertThat(Values.toJava(report.getState())).isEqualTo(Map.of("replicas", 2L));
        assertThat(report.getReporter()).isEqualTo("http-observed-source");
    }

    @Test
    void shouldReportOnlyItemsThatChangedSinceTheLastPoll() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{\"replicas\":2}"));
        api.put("WebApp", "default", "blog", JSON.readTree("{\"replicas\":1}"));
        HttpObservedSourceTask task = start(null);
        task.poll();

        assertThat(task.poll()).isNull();
        api.put("WebApp", "default", "blog", JSON.readTree("{\"replicas\":3}"));
        assertThat(task.poll()).extracting(SourceRecord::key).containsExactly("WebApp/default/blog");
    }

    @Test
    void shouldEmitATombstoneForAnItemThatDisappeared() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{}"));
        HttpObservedSourceTask task = start(null);
        task.poll();
        api.items.clear();

        List<SourceRecord> records = task.poll();

        assertThat(records).hasSize(1);
        assertThat(records.get(0).key()).isEqualTo("WebApp/default/shop");
        assertThat(records.get(0).value()).isNull();
    }

    @Test
    void shouldResumeFromItsOffsetWithoutResendingAndStillSeeDeletions() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{}"));
        api.put("WebApp", "default", "blog", JSON.readTree("{}"));
        List<SourceRecord> first = start(null).poll();
        Map<String, ?> offset = first.get(first.size() - 1).sourceOffset();
        api.items.remove("WebApp/default/blog");

        List<SourceRecord> afterRestart = start(offset).poll();

        assertThat(afterRestart).hasSize(1);
        assertThat(afterRestart.get(0).key()).isEqualTo("WebApp/default/blog");
        assertThat(afterRestart.get(0).value()).isNull();
    }

    @Test
    void shouldGiveOnlyTheLastRecordOfAPollTheNewSeenSet() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{}"));
        api.put("WebApp", "default", "blog", JSON.readTree("{}"));

        List<SourceRecord> records = start(null).poll();

        // A restart from the first record's offset must report the whole list again.
        assertThat(start(records.get(0).sourceOffset()).poll()).hasSize(2);
    }

    @Test
    void shouldReportNothingWhenTheListFails() throws Exception {
        api.put("WebApp", "default", "shop", JSON.readTree("{}"));
        HttpObservedSourceTask task = start(null);
        task.poll();
        api.failNext.add(503);

        assertThat(task.poll()).isNull();
    }

    private HttpObservedSourceTask start(Map<String, ?> storedOffset) {
        HttpObservedSourceTask task = new HttpObservedSourceTask();
        OffsetStorageReader reader = (OffsetStorageReader) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {OffsetStorageReader.class}, (proxy, method, args) ->
                method.getName().equals("offset") ? (storedOffset == null ? null : new HashMap<>(storedOffset)) : null);
        task.initialize((SourceTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {SourceTaskContext.class},
            (proxy, method, args) -> method.getName().equals("offsetStorageReader") ? reader : null));
        task.start(Map.of(HttpObservedSourceConfig.LIST_URL, api.listUrl(),
            HttpObservedSourceConfig.POLL_INTERVAL_MS, "1"));
        return task;
    }
}
