package io.statesync.reconciler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Why a resource is where it is, for people.
 *
 * @param generationLag            desired generation minus observed generation (never negative)
 * @param staleOrFalseConditions   the conditions that are unhealthy: Synced not True, Stalled or ObservedStale True,
 *                                 Progressing True for longer than the correction deadline
 * @param stuckCorrection          the last correction, when it is past its deadline without convergence
 * @param hints                    human sentences, most important first
 */
public record Diagnosis(long generationLag, List<ConditionView> staleOrFalseConditions,
                        Optional<StuckCorrection> stuckCorrection, List<String> hints) {
    public Diagnosis {
        staleOrFalseConditions = List.copyOf(staleOrFalseConditions);
        hints = List.copyOf(hints);
    }

    /** A correction past its deadline. */
    public record StuckCorrection(String commandId, Action action, Reason reason, int attempt, Instant issuedAt,
                                  Instant deadline, Duration overdueBy) {
    }
}
