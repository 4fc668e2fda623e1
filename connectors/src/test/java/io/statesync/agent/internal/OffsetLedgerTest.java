package io.statesync.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class OffsetLedgerTest {

    private static final TopicPartition TP = new TopicPartition("statesync.corrections", 0);
    private final OffsetLedger ledger = new OffsetLedger();

    @Test
    void shouldNotCommitPastASlowCorrectionThatOthersOvertook() {
        ledger.started(TP, 10);
        ledger.started(TP, 11);
        ledger.started(TP, 12);
        ledger.finished(TP, 11);
        ledger.finished(TP, 12);

        assertThat(ledger.takeCommittable()).isEqualTo(Map.of(TP, new OffsetAndMetadata(10)));
    }

    @Test
    void shouldCommitPastTheLastOffsetOnceEverythingFinished() {
        ledger.started(TP, 10);
        ledger.started(TP, 11);
        ledger.finished(TP, 11);
        ledger.finished(TP, 10);

        assertThat(ledger.takeCommittable()).isEqualTo(Map.of(TP, new OffsetAndMetadata(12)));
    }

    @Test
    void shouldNotOfferTheSameCommitTwice() {
        ledger.started(TP, 0);
        ledger.finished(TP, 0);
        ledger.committed(ledger.takeCommittable());

        assertThat(ledger.takeCommittable()).isEmpty();
    }

    @Test
    void shouldIgnoreCompletionsForForgottenPartitions() {
        ledger.started(TP, 5);
        ledger.forget(TP);
        ledger.finished(TP, 5);

        assertThat(ledger.takeCommittable()).isEmpty();
        assertThat(ledger.pending()).isZero();
    }
}
