package io.statesync.view.internal;

/**
 * Whether a {@link ViewSnapshot} may stand in for reading statesync.resources from the beginning: the view it holds,
 * followed by the topic from the snapshot's position on, must equal what a full read would give.
 *
 * <p>That holds when the topic is the same one (same id: a topic deleted and created again restarts its offsets),
 * every offset the snapshot resumes from is still in the log (not below its start, not beyond its end), and the
 * snapshot is younger than the time compaction keeps tombstones ({@code delete.retention.ms}): a key deleted after the
 * snapshot and whose tombstone was then cleaned away would otherwise stay in the view for ever. Compaction removing
 * other records after the position is harmless, since it only drops values that a later record of the key replaces.
 */
public final class ViewSnapshotPolicy {

    private final String topic;
    private final long maxAgeMs;

    /** {@code maxAgeMs}: the operator's limit, already capped at the topic's {@code delete.retention.ms}. */
    public ViewSnapshotPolicy(String topic, long maxAgeMs) {
        this.topic = topic;
        this.maxAgeMs = maxAgeMs;
    }

    /** Why {@code header} cannot be used against the topic as it is now, or null when it can. */
    public String problem(ViewSnapshot.Header header, String topicId, long[] logStart, long[] logEnd, long nowMs) {
        if (!topic.equals(header.topic())) {
            return "it is of topic " + header.topic() + ", not " + topic;
        }
        if (!topicId.equals(header.topicId())) {
            return "the topic was created again since (id " + header.topicId() + ", now " + topicId + ")";
        }
        long age = nowMs - header.writtenAtMs();
        if (age > maxAgeMs || age < 0) {
            return "it is " + age + " ms old, over the " + maxAgeMs + " ms a deleted key's tombstone is sure to be kept";
        }
        long[] at = header.positions();
        if (at.length != logStart.length) {
            return "it has " + at.length + " partitions and the topic " + logStart.length;
        }
        for (int p = 0; p < at.length; p++) {
            if (at[p] < logStart[p] || at[p] > logEnd[p]) {
                return "partition " + p + " resumes at offset " + at[p] + ", outside the log's " + logStart[p] + "-" + logEnd[p];
            }
        }
        return null;
    }
}
