package io.statesync.reconciler;

import static io.statesync.reconciler.ConditionView.FALSE;
import static io.statesync.reconciler.ConditionView.TRUE;
import static io.statesync.reconciler.ConditionView.UNKNOWN;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Derives the status of a resource from its previous status, the planner's input and its decision.
 * <ul>
 *   <li>syncStatus: Stalled when the planner gave up; Deleting while deleting; Orphaned for an orphan (reported or
 *       being pruned); Synced when in sync; Progressing while a correction is outstanding (just emitted or before
 *       its deadline); OutOfSync while a failed correction waits for its retry (Synced reason RetryBackoff) or a
 *       planned one waits for the kind's correction rate (reason RateLimited).</li>
 *   <li>Conditions Synced, Progressing, Stalled and ObservedStale, in that order, then MergeConflict once the merge
 *       has reported a conflict. A condition keeps its lastTransitionTime unless its status changes. Messages carry
 *       no clock, so a heartbeat changes nothing.</li>
 *   <li>diff: what the merge would still change (owned fields only; unowned additions are not listed unless
 *       strict).</li>
 * </ul>
 */
public final class StatusCalculator {
    private StatusCalculator() {
    }

    /** @param previous the status stored with the resource, or null for a new one */
    public static StatusView compute(StatusView previous, PlanInput in, Decision decision) {
        return compute(previous, in, decision, CorrectionPlanner.merge(in));
    }

    /** As above, with {@code merge} what {@link CorrectionPlanner#merge(PlanInput)} returned for {@code in}. */
    public static StatusView compute(StatusView previous, PlanInput in, Decision decision, MergeResult merge) {
        SyncStatus sync = syncStatus(in, decision);
        List<FieldDiff> diff = diff(in, merge);
        List<ConditionView> conditions = new ArrayList<>(5);
        conditions.add(transition(previous, syncedCondition(sync, in, decision, diff), in.now()));
        conditions.add(transition(previous, progressingCondition(in, decision), in.now()));
        conditions.add(transition(previous, stalledCondition(decision), in.now()));
        conditions.add(transition(previous, staleCondition(in), in.now()));
        mergeConflictCondition(previous, sync, decision, merge)
                .ifPresent(c -> conditions.add(transition(previous, c, in.now())));
        boolean becameSynced = sync == SyncStatus.Synced && (previous == null || previous.syncStatus() != SyncStatus.Synced);
        Instant convergedAt = becameSynced ? in.now() : previous == null ? null : previous.convergedAt();
        long observedGeneration = in.observed().isPresent() ? in.observed().observedGeneration()
                : previous == null ? 0 : previous.observedGeneration();
        return new StatusView(sync, conditions, diff, attempts(in, decision), observedGeneration, convergedAt,
                in.observed().observedAt());
    }

    /**
     * The convergence time to record when {@code next} has just become Synced for the first time since the desired
     * write that made the current generation: from that write to {@code next.convergedAt()}. A drift repaired later
     * does not count again. Empty when nothing converged in this step.
     */
    public static Optional<Duration> convergenceTime(StatusView previous, StatusView next, Instant desiredWrittenAt) {
        boolean justSynced = next.syncStatus() == SyncStatus.Synced && next.convergedAt() != null
                && (previous == null || previous.syncStatus() != SyncStatus.Synced);
        boolean firstSinceWrite = previous == null || previous.convergedAt() == null
                || desiredWrittenAt == null || previous.convergedAt().isBefore(desiredWrittenAt);
        if (!justSynced || !firstSinceWrite || desiredWrittenAt == null) {
            return Optional.empty();
        }
        Duration d = Duration.between(desiredWrittenAt, next.convergedAt());
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
    }

    private static SyncStatus syncStatus(PlanInput in, Decision decision) {
        if (decision instanceof Decision.Stalled) {
            return SyncStatus.Stalled;
        }
        if (in.deleting()) {
            return SyncStatus.Deleting;
        }
        if (decision instanceof Decision.Orphan || (in.desiredSpec() == null && !(decision instanceof Decision.InSync))) {
            return SyncStatus.Orphaned;
        }
        if (decision instanceof Decision.InSync) {
            return SyncStatus.Synced;
        }
        return inFlight(in, decision) ? SyncStatus.Progressing : SyncStatus.OutOfSync;
    }

    /** A correction is outstanding: emitted now, or issued earlier, not acknowledged and before its deadline. */
    private static boolean inFlight(PlanInput in, Decision decision) {
        if (decision instanceof Decision.Emit) {
            return true;
        }
        LastCorrection last = in.lastCorrection();
        return decision instanceof Decision.Wait && last != null && in.now().isBefore(last.deadline())
                && !last.commandId().equals(in.observed().ackCommandId());
    }

    private static List<FieldDiff> diff(PlanInput in, MergeResult merge) {
        if (in.deleting() || in.desiredSpec() == null) {
            return List.of();
        }
        if (!in.observed().isPresent()) {
            return Differ.diff(in.desiredSpec(), null, in.policy());
        }
        return merge.inSync() ? List.of() : Differ.diff(merge.target(), in.observed().state(), in.policy());
    }

    private static int attempts(PlanInput in, Decision decision) {
        if (decision instanceof Decision.Emit emit) {
            return emit.correction().attempt();
        }
        boolean pending = decision instanceof Decision.Wait || decision instanceof Decision.Stalled;
        return pending && in.lastCorrection() != null ? in.lastCorrection().attempt() : 0;
    }

    private static ConditionView syncedCondition(SyncStatus sync, PlanInput in, Decision decision,
                                                 List<FieldDiff> diff) {
        if (sync == SyncStatus.Synced) {
            return condition(ConditionView.SYNCED, TRUE, "Synced", "observed state matches the desired spec");
        }
        String reason = switch (sync) {
            case Stalled, Deleting, Orphaned -> sync.name();
            default -> decision instanceof Decision.Emit e ? e.correction().reason().name()
                    : inFlight(in, decision) ? in.lastCorrection().reason().name()
                    : decision instanceof Decision.Wait w && w.rateLimited() ? Decision.Wait.RATE_LIMITED : "RetryBackoff";
        };
        return condition(ConditionView.SYNCED, FALSE, reason, summarize(diff));
    }

    /** A short text naming the first differing fields, as the Synced condition and the drift event show them. */
    public static String summarize(List<FieldDiff> diff) {
        if (diff.isEmpty()) {
            return "";
        }
        String paths = diff.stream().limit(5).map(d -> d.path().isRoot() ? "<root>" : d.path().format())
                .collect(Collectors.joining(", "));
        return diff.size() + (diff.size() == 1 ? " field differs: " : " fields differ: ") + paths
                + (diff.size() > 5 ? ", ..." : "");
    }

    private static ConditionView progressingCondition(PlanInput in, Decision decision) {
        if (decision instanceof Decision.Emit e) {
            PlannedCorrection c = e.correction();
            return condition(ConditionView.PROGRESSING, TRUE, "CorrectionIssued",
                    describe(c.action(), c.reason(), c.attempt(), c.deadline()));
        }
        if (inFlight(in, decision)) {
            LastCorrection c = in.lastCorrection();
            return condition(ConditionView.PROGRESSING, TRUE, "CorrectionIssued",
                    describe(c.action(), c.reason(), c.attempt(), c.deadline()));
        }
        return condition(ConditionView.PROGRESSING, FALSE, "Idle", "");
    }

    private static String describe(Action action, Reason reason, int attempt, Instant deadline) {
        return action + " (" + reason + ") attempt " + attempt + ", deadline " + deadline;
    }

    /**
     * MergeConflict: True, naming the fields, from the correction that overrode someone else's change until the
     * resource is Synced again; then False. Absent on a resource that never had a conflict, so that the common case
     * stores no extra condition. A conflict counts only when a correction resolves it: a later merge sees last-applied
     * equal to desired and no longer reports it.
     */
    private static Optional<ConditionView> mergeConflictCondition(StatusView previous, SyncStatus sync,
                                                                  Decision decision, MergeResult merge) {
        if (decision instanceof Decision.Emit && merge != null && !merge.conflicts().isEmpty()) {
            return Optional.of(condition(ConditionView.MERGE_CONFLICT, TRUE, "FieldValue", conflictFields(merge)));
        }
        Optional<ConditionView> before = previous == null ? Optional.empty()
                : previous.condition(ConditionView.MERGE_CONFLICT);
        if (before.isEmpty() || !before.get().isTrue() || sync != SyncStatus.Synced) {
            return before;
        }
        return Optional.of(condition(ConditionView.MERGE_CONFLICT, FALSE, "Resolved", ""));
    }

    /** The conflicting fields, as the MergeConflict condition and event name them. */
    public static String conflictFields(MergeResult merge) {
        List<FieldConflict> conflicts = merge.conflicts();
        String paths = conflicts.stream().limit(5).map(c -> c.path().isRoot() ? "<root>" : c.path().format())
                .collect(Collectors.joining(", "));
        return (conflicts.size() == 1 ? "1 field changed by someone else was overridden: "
                : conflicts.size() + " fields changed by someone else were overridden: ") + paths
                + (conflicts.size() > 5 ? ", ..." : "");
    }

    private static ConditionView stalledCondition(Decision decision) {
        return decision instanceof Decision.Stalled s
                ? condition(ConditionView.STALLED, TRUE, s.reason(), s.message())
                : condition(ConditionView.STALLED, FALSE, "AsExpected", "");
    }

    private static ConditionView staleCondition(PlanInput in) {
        Instant observedAt = in.observed().observedAt();
        if (observedAt == null) {
            return condition(ConditionView.OBSERVED_STALE, UNKNOWN, "NeverObserved", "no agent has reported");
        }
        boolean stale = in.now().isAfter(observedAt.plus(in.policy().stalenessBound()));
        return stale
                ? condition(ConditionView.OBSERVED_STALE, TRUE, "NoRecentObservation",
                        "last observation at " + observedAt + " is older than " + in.policy().stalenessBound())
                : condition(ConditionView.OBSERVED_STALE, FALSE, "RecentObservation", "");
    }

    /** A condition whose transition time is still to be decided; {@link #transition} fills it in. */
    private static ConditionView condition(String type, String status, String reason, String message) {
        return new ConditionView(type, status, reason, message, Instant.EPOCH);
    }

    private static ConditionView transition(StatusView previous, ConditionView next, Instant now) {
        Optional<ConditionView> before = previous == null ? Optional.empty() : previous.condition(next.type());
        Instant since = before.filter(b -> b.status().equals(next.status()))
                .map(ConditionView::lastTransitionTime).orElse(now);
        return new ConditionView(next.type(), next.status(), next.reason(), next.message(), since);
    }
}
