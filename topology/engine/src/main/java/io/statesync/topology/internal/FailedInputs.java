package io.statesync.topology.internal;

import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The inputs whose outputs could not be committed, per instance: under exactly-once an output the broker refuses
 * leaves the stream thread's transaction unable to commit, the task fails and replays from its last commit, and the
 * same input fails it again, forever. Each such failure is charged to the record the task was processing when the
 * refusal came back ({@link #failed}); the task then asks for a commit after every record ({@link #commitEach})
 * until it is past that point, so that a later failure is charged to the one record that causes it. Once a record
 * has been charged {@code maxAttempts} failures, {@link #quarantine} tells the processor boundary to send it to the
 * DLQ instead of processing it. Shared with the Streams handlers and processors through {@link #CONFIG_KEY}; both maps
 * are bounded, and a process restart forgets them (the record is then tried {@code maxAttempts} times again).
 */
public final class FailedInputs {

    /** Streams property under which the production handler and the processor boundary find the instance's record. */
    public static final String CONFIG_KEY = "statesync.failed.inputs";
    /** How long a task that failed keeps committing after each record when it never reaches the failure's offset. */
    static final long CAREFUL_MS = 300_000;
    static final int KEPT = 1_024;

    /** How often a record was charged with a task's failure, and the newest failure. */
    public record Charge(int count, Throwable last) {
    }

    private record Position(String topic, int partition, long offset) {
    }

    private static final class Careful {
        final Map<String, Long> points = new HashMap<>();
        long until;
    }

    private final int maxAttempts;
    private final Clock clock;
    private final Map<String, Charge> charges = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Charge> eldest) {
            return size() > KEPT;
        }
    };
    private final Map<String, Careful> careful = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Careful> eldest) {
            return size() > KEPT;
        }
    };

    /** The record each task began last: what a failure without a record context is charged to. */
    private final Map<String, Position> begun = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Position> eldest) {
            return size() > KEPT;
        }
    };

    public FailedInputs(int maxAttempts, Clock clock) {
        this.maxAttempts = maxAttempts;
        this.clock = clock;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** Task {@code taskId} begins processing a record. */
    public synchronized void begin(String taskId, String topic, int partition, long offset) {
        begun.put(taskId, new Position(topic, partition, offset));
    }

    /**
     * Task {@code taskId} failed while its current record was {@code topic}-{@code partition}@{@code offset}. Kafka
     * Streams reports a refused output with no record context when the refusal comes back at the commit; topic null
     * then charges the record the task began last, which is the one at fault once the task commits after each record.
     */
    public synchronized void failed(String taskId, String topic, int partition, long offset, Throwable error) {
        Careful c = careful.computeIfAbsent(taskId, k -> new Careful());
        c.until = clock.millis() + CAREFUL_MS;
        if (topic == null || offset < 0) {
            Position last = begun.get(taskId);
            if (last == null) {
                return;
            }
            topic = last.topic();
            partition = last.partition();
            offset = last.offset();
        }
        String at = topic + "-" + partition;
        c.points.merge(at, offset, Math::max);
        charges.merge(at + "@" + offset, new Charge(1, error), (old, now) -> new Charge(old.count() + 1, error));
    }

    /** The charge that makes this record quarantined, or null while it may still be processed. */
    public synchronized Charge quarantine(String topic, int partition, long offset) {
        Charge c = charges.get(topic + "-" + partition + "@" + offset);
        return c != null && c.count() >= maxAttempts ? c : null;
    }

    /**
     * Whether the task should commit right after this record: it failed recently and has not yet processed a record
     * past the point of the failure on each partition the failure named.
     */
    public synchronized boolean commitEach(String taskId, String topic, int partition, long offset) {
        Careful c = careful.get(taskId);
        if (c == null) {
            return false;
        }
        if (clock.millis() > c.until) {
            careful.remove(taskId);
            return false;
        }
        String at = topic + "-" + partition;
        Long point = c.points.get(at);
        if (point != null && offset > point) {
            c.points.remove(at);
            if (c.points.isEmpty()) {
                careful.remove(taskId);
            }
        }
        return true;
    }
}
