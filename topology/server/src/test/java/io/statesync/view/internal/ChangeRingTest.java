package io.statesync.view.internal;

import io.statesync.view.ResourceView.Batch;
import io.statesync.view.ResourceView.Type;
import io.statesync.view.StoredResource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChangeRingTest {

    @Test
    void shouldNumberChangesInOrderAndTellAddedModifiedAndDeleted() {
        ChangeRing ring = new ChangeRing(10);
        ring.startAt(new long[] {0, 0});
        StoredResource v1 = StoredResource.absent("k/n/a");
        StoredResource v2 = StoredResource.absent("k/n/a");
        ring.add(0, 0, "k/n/a", v1, null);
        ring.add(1, 0, "k/n/a", v2, v1);
        ring.add(1, 1, "k/n/a", null, v2);
        ring.advance(new long[] {1, 2});

        Batch batch = ring.read(0, 10);

        assertThat(batch.changes()).extracting(c -> c.type()).containsExactly(Type.ADDED, Type.MODIFIED, Type.DELETED);
        assertThat(batch.changes()).extracting(c -> c.seq()).containsExactly(0L, 1L, 2L);
        assertThat(batch.changes().get(2).resource()).as("a deletion carries the last object").isSameAs(v2);
        assertThat(batch.nextSeq()).isEqualTo(3);
        assertThat(batch.positionAfter().offsets()).containsExactly(1, 2);
        assertThat(batch.evicted()).isFalse();
    }

    @Test
    void shouldGiveThePositionOnlyWithTheNewestChange() {
        ChangeRing ring = new ChangeRing(10);
        ring.startAt(new long[] {0});
        for (int i = 0; i < 3; i++) {
            ring.add(0, i, "k/n/" + i, StoredResource.absent("k/n/" + i), null);
        }
        Batch first = ring.read(0, 2);
        assertThat(first.changes()).hasSize(2);
        assertThat(first.positionAfter()).isNull();
        assertThat(ring.read(first.nextSeq(), 2).positionAfter()).isNotNull();
        assertThat(ring.backlog(1)).isEqualTo(2);
    }

    @Test
    void shouldEvictTheOldestChangeAndRefuseAPositionBeforeIt() {
        ChangeRing ring = new ChangeRing(2);
        ring.startAt(new long[] {5});
        for (long offset = 5; offset < 8; offset++) {
            ring.add(0, offset, "k/n/a", StoredResource.absent("k/n/a"), null);
        }
        ring.advance(new long[] {8});

        assertThat(ring.firstSeq()).isEqualTo(1);
        assertThat(ring.read(0, 10).evicted()).isTrue();
        assertThat(ring.replayProblem(new long[] {5}, "t")).contains("too old for partition 0").contains("oldest available 6");
        assertThat(ring.replayProblem(new long[] {6}, "t")).isNull();
        assertThat(ring.replayProblem(new long[] {6, 0}, "t")).contains("2 partitions but t has 1");
    }

    @Test
    void shouldReplayNothingBeforeTheSnapshotItResumedAt() {
        ChangeRing ring = new ChangeRing(10);
        ring.startAt(new long[] {0, 0});
        ring.resumeAt(new long[] {10, 20});

        assertThat(ring.position().offsets()).containsExactly(10, 20);
        assertThat(ring.replayProblem(new long[] {0, 20}, "t")).contains("too old for partition 0");
        assertThat(ring.replayProblem(new long[] {10, 20}, "t")).isNull();
    }

    @Test
    void shouldNeverMoveThePositionBack() {
        ChangeRing ring = new ChangeRing(10);
        ring.startAt(new long[] {3, 3});
        ring.advance(new long[] {5, 2});

        assertThat(ring.position().offsets()).containsExactly(5, 3);
        assertThat(ring.reached(new long[] {5, 3})).isTrue();
        assertThat(ring.reached(new long[] {5, 4})).isFalse();
        assertThat(ring.reached(new long[] {5})).as("partitions the target does not name").isTrue();
    }

    @Test
    void shouldEvictTheOldestChangesOnceTheirBytesPassTheBudget() {
        // Each change's resource stores 1,000 value bytes and a 5-character key; the budget holds three of them.
        long each = 1_005 + ChangeRing.CHANGE_OVERHEAD;
        ChangeRing ring = new ChangeRing(1_000, 3 * each);
        ring.startAt(new long[] {0});
        for (long offset = 0; offset < 10; offset++) {
            ring.add(0, offset, "k/n/a", stored("k/n/a", 1_000), null);
            assertThat(ring.bytes()).as("bytes after change %d", offset).isLessThanOrEqualTo(3 * each);
        }
        ring.advance(new long[] {10});

        assertThat(ring.size()).isEqualTo(3);
        assertThat(ring.firstSeq()).isEqualTo(7);
        assertThat(ring.replayProblem(new long[] {6}, "t")).contains("oldest available 7");
        assertThat(ring.replayProblem(new long[] {7}, "t")).isNull();
        ring.add(0, 10, "k/n/big", stored("k/n/big", 10_000), null);
        assertThat(ring.size()).as("a change larger than the budget is kept alone").isEqualTo(1);
    }

    @Test
    void shouldCountTheResourceAModificationReplacedWhichOnlyTheRingStillHolds() {
        ChangeRing ring = new ChangeRing(1_000, 1L << 30);
        ring.startAt(new long[] {0});
        StoredResource v1 = stored("k/n/a", 1_000);
        ring.add(0, 0, "k/n/a", v1, null);
        ring.add(0, 1, "k/n/a", stored("k/n/a", 2_000), v1);
        ring.add(0, 2, "k/n/a", null, stored("k/n/a", 3_000));

        assertThat(ring.bytes()).isEqualTo(3 * ChangeRing.CHANGE_OVERHEAD + 1_005 + (2_005 + 1_005) + 3_005);
        ring.add(0, 3, "k/n/b", stored("k/n/b", 10), null);
        assertThat(ring.bytes()).isEqualTo(4 * ChangeRing.CHANGE_OVERHEAD + 1_005 + (2_005 + 1_005) + 3_005 + 15);
    }

    private static StoredResource stored(String key, int valueBytes) {
        return StoredResource.of(key, new byte[valueBytes],
            new io.statesync.topology.ResourceSummary(1, io.statesync.avro.SyncStatus.Synced, false), null);
    }
}
