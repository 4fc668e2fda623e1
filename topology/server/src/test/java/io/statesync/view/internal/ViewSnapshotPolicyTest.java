package io.statesync.view.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ViewSnapshotPolicyTest {

    private static final long HOUR = 3_600_000L;
    private static final long WRITTEN = 10 * HOUR;
    private final ViewSnapshotPolicy policy = new ViewSnapshotPolicy("statesync.resources", HOUR);
    private final ViewSnapshot.Header header = new ViewSnapshot.Header(WRITTEN, "statesync.resources", "id-1",
        new long[] {5, 0, 100}, 3);

    @Test
    void shouldUseASnapshotOfTheSameTopicWhosePositionIsStillInTheLog() {
        assertThat(policy.problem(header, "id-1", new long[] {0, 0, 100}, new long[] {9, 0, 250}, WRITTEN + 1_000)).isNull();
        assertThat(policy.problem(header, "id-1", new long[] {5, 0, 100}, new long[] {5, 0, 100}, WRITTEN + HOUR)).isNull();
    }

    @Test
    void shouldRefuseASnapshotOfAnotherOrARecreatedTopic() {
        assertThat(new ViewSnapshotPolicy("other.resources", HOUR).problem(header, "id-1", new long[] {0, 0, 0},
            new long[] {9, 9, 999}, WRITTEN)).contains("not other.resources");
        assertThat(policy.problem(header, "id-2", new long[] {0, 0, 0}, new long[] {9, 9, 999}, WRITTEN))
            .contains("created again");
    }

    @Test
    void shouldRefuseASnapshotOlderThanTombstonesAreKept() {
        assertThat(policy.problem(header, "id-1", new long[] {0, 0, 0}, new long[] {9, 9, 999}, WRITTEN + HOUR + 1))
            .contains("ms old");
        assertThat(policy.problem(header, "id-1", new long[] {0, 0, 0}, new long[] {9, 9, 999}, WRITTEN - 1))
            .as("written in the future: a clock went back").contains("ms old");
    }

    @Test
    void shouldRefuseAPositionOutsideTheLogOrAnotherPartitionCount() {
        assertThat(policy.problem(header, "id-1", new long[] {6, 0, 0}, new long[] {9, 9, 999}, WRITTEN))
            .as("records after the position were deleted").contains("partition 0");
        assertThat(policy.problem(header, "id-1", new long[] {0, 0, 0}, new long[] {9, 9, 99}, WRITTEN))
            .as("the log ends before the position").contains("partition 2");
        assertThat(policy.problem(header, "id-1", new long[] {0, 0}, new long[] {9, 9}, WRITTEN)).contains("partitions");
    }
}
