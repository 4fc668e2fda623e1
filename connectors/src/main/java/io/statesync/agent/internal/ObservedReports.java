package io.statesync.agent.internal;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import io.statesync.agent.Observation;
import io.statesync.agent.ResourceRef;
import io.statesync.agent.TerminalApplyException;
import io.statesync.avro.ApplyError;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;

/** Builds the ObservedState reports of docs/contract.md, section 8, from observations, corrections and the agent's memory. */
public final class ObservedReports {

    public static final String APPLY_FAILED = "ApplyFailed";

    private final String reporter;
    private final Clock clock;

    public ObservedReports(String reporter, Clock clock) {
        this.reporter = reporter;
        this.clock = clock;
    }

    /** After a successful apply: acknowledges the command at the correction's generation. */
    public ObservedState applied(Correction c, Observation seen) {
        return base(seen, clock.instant())
            .setUid(c.getUid())
            .setObservedGeneration(c.getGeneration())
            .setAckCommandId(c.getCommandId())
            .build();
    }

    /**
     * After a failed apply: acknowledges the command (so statesync retries after backoff instead of waiting for
     * the deadline) but keeps the generation last applied, since the world did not move.
     */
    public ObservedState failed(Correction c, Observation seen, long appliedGeneration, Condition failure,
                                ApplyError error) {
        return base(seen, clock.instant())
            .setUid(c.getUid())
            .setObservedGeneration(appliedGeneration)
            .setConditions(List.of(failure))
            .setAckCommandId(c.getCommandId())
            .setError(error)
            .build();
    }

    /**
     * A resync report: what the world says, completed with what the agent remembers, including the last command it
     * acknowledged, so that a resync between a failed apply and its retry does not look like a lost command.
     */
    public ObservedState resynced(Observation seen, AgentMemory.Entry memory, Instant listedAt) {
        ObservedState.Builder b = base(seen, listedAt);
        String uid = seen.uid() != null ? seen.uid() : memory == null ? null : memory.uid();
        long generation = seen.observedGeneration() > 0 ? seen.observedGeneration()
            : memory == null ? 0L : memory.generation();
        if (memory != null && memory.failure() != null) {
            b.setConditions(List.of(memory.failure()));
            b.setError(memory.error());
        }
        b.setAckCommandId(memory == null ? null : memory.ackCommandId());
        return b.setUid(uid).setObservedGeneration(generation).build();
    }

    public Condition failure(Correction c, Throwable error) {
        String message = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
        return Condition.newBuilder()
            .setType(APPLY_FAILED)
            .setStatus("True")
            .setReason(error.getClass().getSimpleName())
            .setMessage("attempt " + c.getAttempt() + " of " + c.getCommandId() + ": " + message)
            .setLastTransitionTime(clock.instant())
            .setObservedGeneration(c.getGeneration())
            .build();
    }

    /** The report's error: terminal when the agent threw {@link TerminalApplyException}. */
    public ApplyError error(Correction c, Throwable error) {
        String message = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
        return new ApplyError(message, error instanceof TerminalApplyException, c.getCommandId(), c.getGeneration());
    }

    private ObservedState.Builder base(Observation seen, Instant at) {
        ResourceRef ref = seen.ref();
        return ObservedState.newBuilder()
            .setKind(ref.kind())
            .setNamespace(ref.namespace())
            .setName(ref.name())
            .setUid(null)
            .setObservedGeneration(0L)
            .setState(seen.isAbsent() ? null : Values.fromJava(seen.state()))
            .setStatus(seen.status() == null ? null : Values.fromJava(seen.status()))
            .setConditions(List.of())
            .setObservedAt(at)
            .setReporter(reporter)
            .setAckCommandId(null)
            .setError(null);
    }
}
