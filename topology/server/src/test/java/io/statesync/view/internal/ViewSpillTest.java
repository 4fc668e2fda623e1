package io.statesync.view.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ViewSpillTest {

    private static final StoredResource.Decoder DECODER = ViewSnapshotTest.DECODER;

    @TempDir
    Path dir;

    @Test
    void shouldBeDueOnlyPastTheThresholdAndAnIntervalAfterTheViewCaughtUp() {
        ViewSpill spill = new ViewSpill(store(dir.resolve("v.snapshot")), 100, 1_000);
        StoredResource a = resource("a", 60);
        spill.changed(null, a);
        spill.loaded(10_000, 400);
        assertThat(spill.due(20_000)).as("60 of 100 bytes, under a quarter of the file's 400").isFalse();

        spill.changed(null, resource("b", 60));
        assertThat(spill.heapBytes()).isEqualTo(120);
        assertThat(spill.due(10_500)).as("within the interval after the load").isFalse();
        assertThat(spill.due(11_000)).isTrue();

        spill.changed(a, resource("a", 10));
        assertThat(spill.heapBytes()).as("a replaced value no longer counts").isEqualTo(70);
        assertThat(spill.due(11_000)).isFalse();
        spill.close();
    }

    @Test
    void shouldBeDueAtTheThresholdHoweverLargeTheFileTheViewStartedFrom() {
        ViewSpill spill = new ViewSpill(store(dir.resolve("v.snapshot")), 100, 0);
        spill.loaded(0, 1_000);
        StoredResource a = resource("a", 90);
        spill.changed(null, a);
        assertThat(spill.due(0)).as("90 bytes on the heap against 1,000 in the file").isFalse();
        spill.changed(null, resource("b", 10));
        assertThat(spill.due(0)).as("the threshold is a budget: a large file does not raise it").isTrue();
        spill.close();
    }

    @Test
    void shouldBeDueEarlyFromAQuarterOfTheThresholdWhenTheFileIsSmall() {
        ViewSpill spill = new ViewSpill(store(dir.resolve("v.snapshot")), 100, 0);
        spill.loaded(0, 40);
        spill.changed(null, resource("a", 20));
        assertThat(spill.due(0)).as("20 bytes, under a quarter of the threshold").isFalse();
        spill.changed(null, resource("b", 5));
        assertThat(spill.due(0)).as("25 bytes: a quarter of the threshold and over a quarter of the file").isTrue();
        spill.close();
    }

    @Test
    void shouldHandBackTheWrittenResourcesMappedFromTheFileInTheSameOrder() throws Exception {
        Path file = dir.resolve("v.snapshot");
        ViewSpill spill = new ViewSpill(store(file), 100, 0);
        StoredResource[] sorted = {resource("a", 30), resource("b", 40), resource("c", 50)};
        for (StoredResource r : sorted) {
            spill.changed(null, r);
        }
        assertThat(spill.due(0)).isTrue();

        spill.start(new long[] {3}, sorted, 0);
        assertThat(spill.due(0)).as("one write at a time").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.isRegularFile(file) && peek(spill) != null);
        ViewSpill.Spilled done = last;
        for (int i = 0; i < sorted.length; i++) {
            assertThat(StoredValue.of(done.mapped()[i]).isMapped()).isTrue();
            assertThat(done.mapped()[i].key()).isSameAs(sorted[i].key());
            assertThat(ViewSnapshotTest.bytes(done.mapped()[i])).isEqualTo(ViewSnapshotTest.bytes(sorted[i]));
            spill.mappedIn(done.written()[i]);
        }
        assertThat(spill.heapBytes()).isZero();
        // The file now holds 120 bytes: below the threshold, the heap must reach a quarter of the threshold and of the
        // file to write again.
        spill.changed(null, resource("d", 20));
        assertThat(spill.due(0)).isFalse();
        spill.changed(null, resource("e", 20));
        assertThat(spill.due(0)).isTrue();
        assertThat(spill.close()).isTrue();
    }

    @Test
    void shouldPointTheRingsChangesAtTheMappedCopiesSoThatTheRingHoldsNoSpilledValueOnTheHeap() throws Exception {
        Path file = dir.resolve("v.snapshot");
        ViewSpill spill = new ViewSpill(store(file), 1, 0);
        StoredResource oldB = resource("b", 4_000);
        StoredResource[] sorted = {resource("a", 3_000), resource("b", 5_000), resource("c", 6_000)};
        ChangeRing ring = new ChangeRing(100, 1L << 30);
        ring.startAt(new long[] {0});
        ring.add(0, 0, sorted[0].key(), sorted[0], null);
        ring.add(0, 1, oldB.key(), oldB, null);
        ring.add(0, 2, sorted[1].key(), sorted[1], oldB);
        ring.add(0, 3, sorted[2].key(), sorted[2], null);
        long unspilled = resource("z", 1).key().length();
        StoredResource later = resource("a", 7_000);
        ring.add(0, 4, later.key(), later, sorted[0]);

        spill.start(new long[] {4}, sorted, 0);
        await().atMost(Duration.ofSeconds(10)).until(() -> peek(spill) != null);
        ring.swapIn(last.written(), last.mapped());

        List<ResourceView.Change> changes = ring.read(0, 10).changes();
        assertThat(changes.get(0).resource()).isSameAs(last.mapped()[0]);
        assertThat(changes.get(1).resource()).as("a value no write took stays").isSameAs(oldB);
        assertThat(changes.get(2).resource()).isSameAs(last.mapped()[1]);
        assertThat(changes.get(2).previous()).isSameAs(oldB);
        assertThat(changes.get(3).resource()).isSameAs(last.mapped()[2]);
        assertThat(changes.get(4).resource()).as("written after the snapshot").isSameAs(later);
        assertThat(changes.get(4).previous()).isSameAs(last.mapped()[0]);
        assertThat(ring.bytes()).as("mapped values count their keys only")
            .isEqualTo(5 * ChangeRing.CHANGE_OVERHEAD + 4 * unspilled + oldB.storedBytes() * 2 + later.storedBytes());
        assertThat(ViewSnapshotTest.bytes(changes.get(3).resource())).isEqualTo(ViewSnapshotTest.bytes(sorted[2]));
        spill.close();
    }

    private ViewSpill.Spilled last;

    private ViewSpill.Spilled peek(ViewSpill spill) {
        ViewSpill.Spilled done = spill.finished();
        if (done != null) {
            last = done;
        }
        return last;
    }

    private static ViewSnapshotStore store(Path file) {
        return new ViewSnapshotStore(file, "statesync.resources", 3_600_000L,
            () -> new ResourceView.TopicFacts("topic-id", 86_400_000L), DECODER);
    }

    /** A resource whose stored value is {@code length} bytes (the spill never decodes it). */
    private static StoredResource resource(String name, int length) {
        byte[] value = new byte[length];
        value[0] = (byte) name.charAt(0);
        return StoredResource.of("WebApp/ns/" + name, value, new ResourceSummary(1, SyncStatus.Synced, false), DECODER);
    }
}
