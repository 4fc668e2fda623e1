package io.statesync.rest.internal;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import io.statesync.avro.ReconcileEvent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PendingAnswersTest {

    @Test
    void shouldGiveEveryWriteItsOwn128BitIdEvenForTheSameKey() {
        PendingAnswers pending = new PendingAnswers();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(pending.register("WebApp/default/shop").id());
        }
        assertThat(ids).hasSize(10_000);
        assertThat(ids).allSatisfy(id -> assertThat(id).matches("[0-9a-f]{32}"));
    }

    @Test
    void shouldHandEachAnswerOnlyToTheWriteWhoseIdItCarries() {
        PendingAnswers pending = new PendingAnswers();
        PendingAnswers.Pending first = pending.register("WebApp/default/shop");
        PendingAnswers.Pending second = pending.register("WebApp/default/shop");

        CompletableFuture<ReconcileEvent> claimed = pending.claim(second.id(), "WebApp/default/shop");

        assertThat(claimed).isSameAs(second.answer());
        assertThat(pending.claim(second.id(), "WebApp/default/shop")).as("an answer is claimed once").isNull();
        assertThat(pending.claim(first.id(), "WebApp/default/shop")).isSameAs(first.answer());
    }

    @Test
    void shouldIgnoreARecordWithoutAnIdWithAnUnknownIdOrForAnotherKey() {
        PendingAnswers pending = new PendingAnswers();
        PendingAnswers.Pending p = pending.register("WebApp/default/shop");

        assertThat(pending.claim(null, "WebApp/default/shop")).isNull();
        assertThat(pending.claim(PendingAnswers.newId(), "WebApp/default/shop")).isNull();
        assertThat(pending.claim(p.id(), "WebApp/default/other")).as("the id of a write to another key").isNull();
        assertThat(pending.size()).as("a refused claim leaves the write waiting").isEqualTo(1);
        assertThat(pending.claim(p.id(), "WebApp/default/shop")).isSameAs(p.answer());
    }

    @Test
    void shouldForgetAWriteGivenUpOnAndCancelTheRestAtClose() {
        PendingAnswers pending = new PendingAnswers();
        PendingAnswers.Pending gone = pending.register("k/default/a");
        PendingAnswers.Pending open = pending.register("k/default/b");

        pending.forget(gone);
        assertThat(pending.claim(gone.id(), "k/default/a")).isNull();
        pending.cancelAll();

        assertThat(open.answer()).isCancelled();
        assertThat(pending.size()).isZero();
    }
}
