package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnoserTest {
    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final ReconcilePolicy POLICY = ReconcilePolicy.defaults();

    private static ConditionView cond(String type, String status) {
        return new ConditionView(type, status, "R", "m", T0);
    }

    private static StatusView status(SyncStatus sync, long observedGeneration, List<ConditionView> conditions,
                                     List<FieldDiff> diff) {
        return new StatusView(sync, conditions, diff, 3, observedGeneration, null, T0);
    }

    @Test
    void shouldSayInSyncForAHealthyResource() {
        StatusView s = status(SyncStatus.Synced, 2, List.of(cond("Synced", "True"), cond("Stalled", "False")), List.of());

        Diagnosis d = Diagnoser.diagnose(2, s, null, T0, POLICY);

        assertThat(d.generationLag()).isZero();
        assertThat(d.staleOrFalseConditions()).isEmpty();
        assertThat(d.stuckCorrection()).isEmpty();
        assertThat(d.hints()).containsExactly("In sync; nothing to do.");
    }

    @Test
    void shouldReportGenerationLagStaleConditionsAndAStuckCorrection() {
        ConditionView synced = cond("Synced", "False");
        ConditionView stale = cond("ObservedStale", "True");
        ConditionView progressing = cond("Progressing", "True");
        FieldDiff diff = new FieldDiff(FieldPath.of("replicas"), DiffKind.TYPE_MISMATCH, 5L, "5");
        StatusView s = status(SyncStatus.Progressing, 1, List.of(synced, progressing, stale), List.of(diff));
        LastCorrection last = new LastCorrection("cmd-7", Action.UPDATE, Reason.SpecChanged, 2, 3, "fp", T0,
                T0.plusSeconds(30));
        Instant now = T0.plusSeconds(90);

        Diagnosis d = Diagnoser.diagnose(3, s, last, now, POLICY);

        assertThat(d.generationLag()).isEqualTo(2);
        assertThat(d.staleOrFalseConditions()).containsExactly(synced, progressing, stale);
        assertThat(d.stuckCorrection()).hasValueSatisfying(stuck -> {
            assertThat(stuck.commandId()).isEqualTo("cmd-7");
            assertThat(stuck.overdueBy()).isEqualTo(Duration.ofSeconds(60));
        });
        assertThat(d.hints()).anyMatch(h -> h.contains("staleness bound"))
                .anyMatch(h -> h.contains("cmd-7") && h.contains("1m0s past its deadline"))
                .anyMatch(h -> h.contains("generation 1") && h.contains("generation is 3"))
                .anyMatch(h -> h.contains("replicas is string on the observed side but long"));
    }

    @Test
    void shouldHintHowToLeaveStalled() {
        StatusView s = status(SyncStatus.Stalled, 2, List.of(cond("Stalled", "True")), List.of());

        Diagnosis d = Diagnoser.diagnose(2, s, null, T0, POLICY);

        assertThat(d.staleOrFalseConditions()).hasSize(1);
        assertThat(d.hints().get(0)).startsWith("Gave up after 3 attempts").contains("new generation");
    }

    @Test
    void shouldNotCallAFreshProgressingConditionStale() {
        StatusView s = status(SyncStatus.Progressing, 2, List.of(cond("Progressing", "True")), List.of());

        assertThat(Diagnoser.diagnose(2, s, null, T0.plusSeconds(5), POLICY).staleOrFalseConditions()).isEmpty();
    }

    @Test
    void shouldHintAboutAnOrphan() {
        StatusView s = status(SyncStatus.Orphaned, 0, List.of(), List.of());

        assertThat(Diagnoser.diagnose(0, s, null, T0, POLICY).hints().get(0)).contains("orphanPolicy REPORT");
    }

    @Test
    void shouldBeAPureFunction() {
        StatusView s = status(SyncStatus.OutOfSync, 1, List.of(cond("Synced", "False")),
                List.of(new FieldDiff(FieldPath.of("a"), DiffKind.MISSING, map("x", 1), null)));

        assertThat(Diagnoser.diagnose(2, s, null, T0, POLICY)).isEqualTo(Diagnoser.diagnose(2, s, null, T0, POLICY));
    }
}
