package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

/**
 * Admission copies a writer's answer id onto the record of the event that answers the write, for every kind of
 * answer, so that a writer matches answers by the id it generated and not by a request id clients may share.
 */
class AnswerIdEchoTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";

    private List<TestRecord<String, ReconcileEvent>> answers() {
        return f.events.readRecordsToList().stream().filter(r -> r.value().getRequestId() != null).toList();
    }

    private static String answerId(TestRecord<String, ReconcileEvent> r) {
        var h = r.headers().lastHeader(StatesyncHeaders.ANSWER_ID);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldAnswerTwoWritesThatShareARequestIdEachUnderItsOwnAnswerId() {
        DesiredState first = TopologyFixture.desiredState(KEY, Map.of("a", 1L));
        f.putAnswered(KEY, first, "shared", "answer-1");
        DesiredState stale = TopologyFixture.desiredState(KEY, Map.of("a", 2L));
        stale.setExpectedResourceVersion("999999");
        f.putAnswered(KEY, stale, "shared", "answer-2");

        List<TestRecord<String, ReconcileEvent>> answers = answers();
        assertThat(answers).hasSize(2);
        assertThat(answerId(answers.get(0))).isEqualTo("answer-1");
        assertThat(answers.get(0).value().getType()).isEqualTo(EventType.Accepted);
        assertThat(answerId(answers.get(1))).isEqualTo("answer-2");
        assertThat(answers.get(1).value().getType()).isEqualTo(EventType.Conflict);
        assertThat(answers).allSatisfy(r -> assertThat(r.value().getRequestId()).isEqualTo("shared"));
    }

    @Test
    void shouldEchoTheAnswerIdOnNoOpInvalidAndDeleteAnswers() {
        DesiredState d = TopologyFixture.desiredState(KEY, Map.of("a", 1L));
        f.putAnswered(KEY, d, "r", "created");
        f.putAnswered(KEY, TopologyFixture.desiredState(KEY, Map.of("a", 1L)), "r", "noop");
        f.putAnswered("WebApp/default/missing", null, "r", "not-found");
        f.putAnswered(KEY, null, "r", "deleted");

        assertThat(answers()).extracting(AnswerIdEchoTest::answerId)
            .containsExactly("created", "noop", "not-found", "deleted");
    }

    @Test
    void shouldAnswerAWriteThatCarriesOnlyAnAnswerId() {
        var h = new org.apache.kafka.common.header.internals.RecordHeaders();
        h.add(StatesyncHeaders.ANSWER_ID, "only".getBytes(StandardCharsets.UTF_8));
        f.desired.pipeInput(new TestRecord<>(KEY, TopologyFixture.desiredState(KEY, Map.of("a", 1L)), h, f.now()));

        assertThat(f.events.readRecordsToList()).filteredOn(r -> r.value().getType() == EventType.Accepted)
            .extracting(AnswerIdEchoTest::answerId).containsExactly("only");
    }
}
