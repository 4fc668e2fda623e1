package io.statesync.reliability;

import java.time.Instant;
import java.util.Map;

import io.statesync.avro.EventType;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The checker must catch the histories it exists to catch, or the CAS IT proves nothing. */
class CasHistoryTest {

    static final String KEY = "CasRace/default/key-0";

    @Test
    void shouldAcceptAHistoryWhereEachWriteBuildsOnTheVersionItExpected() {
        CasHistory h = new CasHistory();
        write(h, "seed", null, 1, EventType.Accepted, "1");
        write(h, "a", "1", 2, EventType.Accepted, "2");
        write(h, "b", "1", 3, EventType.Conflict, "2");
        write(h, "c", "2", 4, EventType.Accepted, "3");

        assertThat(h.violations()).isEmpty();
    }

    @Test
    void shouldReportTwoWritersWinningOverTheSameVersion() {
        CasHistory h = new CasHistory();
        write(h, "seed", null, 1, EventType.Accepted, "1");
        write(h, "a", "1", 2, EventType.Accepted, "2");
        write(h, "b", "1", 3, EventType.Accepted, "3");

        assertThat(h.violations()).anyMatch(v -> v.contains("both won over version 1"))
            .anyMatch(v -> v.contains("expected 1 but was applied on top of 2"));
    }

    @Test
    void shouldReportAConflictThatNamedTheExpectedVersionAsCurrent() {
        CasHistory h = new CasHistory();
        write(h, "seed", null, 1, EventType.Accepted, "1");
        write(h, "a", "1", 2, EventType.Conflict, "1");

        assertThat(h.violations()).anyMatch(v -> v.contains("Conflict although"));
    }

    @Test
    void shouldReportALastResourceWhoseSpecIsNotTheLastAcceptedWrite() {
        CasHistory h = new CasHistory();
        write(h, "seed", null, 1, EventType.Accepted, "1");
        write(h, "a", "1", 2, EventType.Accepted, "2");
        h.onResource(KEY, resource("3", Map.of("seq", 99L)));

        assertThat(h.violations()).anyMatch(v -> v.contains("is not the last accepted write's"));
    }

    private static void write(CasHistory h, String id, String expected, long seq, EventType answer, String version) {
        Map<String, Object> spec = Map.of("seq", seq);
        h.sent.put(id, new CasHistory.Sent(0, KEY, expected, spec));
        h.onEvent(ReconcileEvent.newBuilder().setEventId(id).setType(answer).setKind("CasRace").setNamespace("default")
            .setName("key-0").setRequestId(id).setResourceVersion(version).setTimestamp(Instant.EPOCH).build());
        if (answer == EventType.Accepted) {
            h.onResource(KEY, resource(version, spec));
        }
    }

    private static Resource resource(String version, Map<String, Object> spec) {
        return Resource.newBuilder()
            .setMetadata(ObjectMeta.newBuilder().setKind("CasRace").setNamespace("default").setName("key-0").setUid("u")
                .setResourceVersion(version).setGeneration(1).setCreationTimestamp(Instant.EPOCH).build())
            .setSpec(Values.fromJava(spec)).setStatus(ResourceStatus.newBuilder().build()).build();
    }
}
