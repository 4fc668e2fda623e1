package io.statesync.view.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import io.statesync.view.StoredResourceTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ViewSnapshotTest {

    static final StoredResource.Decoder DECODER = bytes -> {
        try {
            return Resource.getDecoder().decode(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @TempDir
    Path dir;

    @Test
    void shouldReadBackEveryResourceWithItsSummaryAndBytesInKeyOrder() throws IOException {
        List<StoredResource> written = List.of(
            stored("Queue", "ops", "jobs", "7", SyncStatus.OutOfSync, Map.of()),
            stored("WebApp", "shop", "caf\u00e9", "42", SyncStatus.Synced, Map.of("app", "cart")),
            stored("WebApp", "shop", "cart", "43", null, Map.of()));
        List<StoredResource> sorted = new ArrayList<>(written);
        sorted.sort((a, b) -> a.key().compareTo(b.key()));
        Path file = dir.resolve("view.snapshot");
        ViewSnapshot.write(file, header(new long[] {3, 0, 12}, sorted.size()), sorted);

        ViewSnapshot.Loaded loaded = ViewSnapshot.read(file, DECODER);

        assertThat(loaded.header().positions()).containsExactly(3, 0, 12);
        assertThat(loaded.header().topic()).isEqualTo("statesync.resources");
        assertThat(loaded.header().topicId()).isEqualTo("topic-id-1");
        assertThat(loaded.header().writtenAtMs()).isEqualTo(1_000L);
        List<StoredResource> back = new ArrayList<>(loaded.byKey().values());
        assertThat(back).hasSize(3);
        for (int i = 0; i < sorted.size(); i++) {
            StoredResource in = sorted.get(i);
            StoredResource out = back.get(i);
            assertThat(out.key()).isEqualTo(in.key());
            assertThat(out.version()).isEqualTo(in.version());
            assertThat(out.syncStatus()).isEqualTo(in.syncStatus());
            assertThat(out.hasLabels()).isEqualTo(in.hasLabels());
            assertThat(bytes(out)).isEqualTo(bytes(in));
            assertThat(out.resource()).isEqualTo(in.resource());
        }
        assertThat(ViewSnapshot.readHeader(file).count()).isEqualTo(3);
        assertThat(file.resolveSibling("view.snapshot.tmp")).doesNotExist();
    }

    @Test
    void shouldKeepAValueLargerThanItsBufferWhole() throws IOException {
        byte[] big = new byte[9 * 1024 * 1024];
        new Random(5).nextBytes(big);
        StoredResource small = stored("A", "n", "a", "1", SyncStatus.Synced, Map.of());
        StoredResource large = StoredResource.of("A/n/b", big, new ResourceSummary(2, SyncStatus.Synced, false), DECODER);
        Path file = dir.resolve("big.snapshot");
        ViewSnapshot.write(file, header(new long[] {1}, 2), List.of(small, large));

        ViewSnapshot.Loaded back = ViewSnapshot.read(file, DECODER);

        assertThat(bytes(back.byKey().get("A/n/a"))).isEqualTo(bytes(small));
        assertThat(bytes(back.byKey().get("A/n/b"))).isEqualTo(big);
    }

    @Test
    void shouldMapTheValuesInsteadOfCopyingThemOntoTheHeap() throws IOException {
        List<StoredResource> sorted = List.of(stored("A", "n", "a", "1", SyncStatus.Synced, Map.of()),
            stored("A", "n", "b", "2", SyncStatus.OutOfSync, Map.of("x", "y")));
        Path file = dir.resolve("mapped.snapshot");
        ViewSnapshot.write(file, header(new long[] {4}, 2), sorted);

        ViewSnapshot.Loaded back = ViewSnapshot.read(file, DECODER);

        assertThat(back.byKey().values()).allSatisfy(r -> assertThat(StoredValue.of(r).isMapped()).isTrue());
        assertThat(back.byKey().get("A/n/b").resource()).isEqualTo(sorted.get(1).resource());
        assertThat(StoredValue.of(back.byKey().get("A/n/b")).valueLength()).isEqualTo(bytes(sorted.get(1)).length);
    }

    @Test
    void shouldKeepMappedValuesReadableAfterTheNextSnapshotReplacesTheFile() throws IOException {
        StoredResource a = stored("A", "n", "a", "1", SyncStatus.Synced, Map.of());
        StoredResource b = stored("A", "n", "b", "2", SyncStatus.Synced, Map.of("x", "y"));
        Path file = dir.resolve("view.snapshot");
        ViewSnapshot.write(file, header(new long[] {2}, 2), List.of(a, b));
        ViewSnapshot.Loaded first = ViewSnapshot.read(file, DECODER);

        // The next stop writes the view it holds (mapped values among them) over the file it was read from.
        StoredResource c = stored("A", "n", "c", "3", SyncStatus.Synced, Map.of());
        List<StoredResource> next = new ArrayList<>(first.byKey().values());
        next.add(c);
        ViewSnapshot.write(file, header(new long[] {3}, 3), next);
        ViewSnapshot.Loaded second = ViewSnapshot.read(file, DECODER);

        assertThat(bytes(first.byKey().get("A/n/a"))).isEqualTo(bytes(a));
        assertThat(first.byKey().get("A/n/b").resource()).isEqualTo(b.resource());
        assertThat(second.byKey().keySet()).containsExactly("A/n/a", "A/n/b", "A/n/c");
        assertThat(bytes(second.byKey().get("A/n/b"))).isEqualTo(bytes(b));
        assertThat(bytes(second.byKey().get("A/n/c"))).isEqualTo(bytes(c));
    }

    @Test
    void shouldFindEveryValueWhenTheValuesSpanManyMappedRegions() throws IOException {
        List<StoredResource> sorted = new ArrayList<>();
        Random random = new Random(11);
        for (int i = 0; i < 40; i++) {
            byte[] value = new byte[1 + random.nextInt(300)];
            random.nextBytes(value);
            sorted.add(StoredResource.of(String.format("A/n/r%03d", i), value, new ResourceSummary(i, SyncStatus.Synced, false), DECODER));
        }
        Path file = dir.resolve("regions.snapshot");
        ViewSnapshot.write(file, header(new long[] {40}, sorted.size()), sorted);

        // Regions every 64 bytes: most values start in one region and run past the next one's start.
        ViewSnapshot.Loaded back = ViewSnapshot.read(file, DECODER, 64);

        for (StoredResource in : sorted) {
            assertThat(bytes(back.byKey().get(in.key()))).as(in.key()).isEqualTo(bytes(in));
        }
    }

    @Test
    void shouldCopyRunsOfMappedValuesAroundChangedAndDeletedOnesIntoTheNextSnapshot() throws IOException {
        Random random = new Random(17);
        List<StoredResource> first = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            first.add(raw(String.format("A/n/r%02d", i), 1 + random.nextInt(200), random));
        }
        Path file = dir.resolve("runs.snapshot");
        ViewSnapshot.write(file, header(new long[] {30}, first.size()), first);
        // Regions every 64 bytes, so that runs of mapped values cross from one region into the next.
        List<StoredResource> view = new ArrayList<>(ViewSnapshot.read(file, DECODER, 64).byKey().values());
        for (int i : new int[] {0, 7, 8, 19, 29}) {
            view.set(i, raw(view.get(i).key(), 1 + random.nextInt(200), random));
        }
        view.add(raw("A/n/r30", 5, random));
        // Deleted keys leave gaps between mapped values that are otherwise neighbours.
        view.remove(23);
        view.remove(12);

        Path next = dir.resolve("next.snapshot");
        ViewSnapshot.write(next, header(new long[] {31}, view.size()), view);
        ViewSnapshot.Loaded back = ViewSnapshot.read(next, DECODER);

        assertThat(back.byKey()).hasSize(view.size());
        for (StoredResource expected : view) {
            assertThat(bytes(back.byKey().get(expected.key()))).as(expected.key()).isEqualTo(bytes(expected));
        }
    }

    private static StoredResource raw(String key, int length, Random random) {
        byte[] value = new byte[length];
        random.nextBytes(value);
        return StoredResource.of(key, value, new ResourceSummary(1, SyncStatus.Synced, false), DECODER);
    }

    @Test
    void shouldRefuseASnapshotCutShortAnywhere() throws IOException {
        List<StoredResource> sorted = List.of(stored("A", "n", "a", "1", SyncStatus.Synced, Map.of()),
            stored("A", "n", "b", "2", SyncStatus.Synced, Map.of("x", "y")));
        Path file = dir.resolve("cut.snapshot");
        ViewSnapshot.write(file, header(new long[] {0, 5}, 2), sorted);
        byte[] whole = Files.readAllBytes(file);
        for (int length : new int[] {0, 3, 20, whole.length / 2, whole.length - 12, whole.length - 1}) {
            Files.write(file, Arrays.copyOf(whole, length));
            assertThatThrownBy(() -> ViewSnapshot.read(file, DECODER)).as("cut at " + length).isInstanceOf(IOException.class);
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotASnapshotOrHasTrailingBytes() throws IOException {
        Path other = dir.resolve("other");
        Files.writeString(other, "{\"not\": \"a snapshot\"}");
        assertThatThrownBy(() -> ViewSnapshot.read(other, DECODER)).isInstanceOf(IOException.class).hasMessageContaining("not a statesync view snapshot");

        Path file = dir.resolve("extra.snapshot");
        ViewSnapshot.write(file, header(new long[] {0}, 1), List.of(stored("A", "n", "a", "1", SyncStatus.Synced, Map.of())));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        }
        assertThatThrownBy(() -> ViewSnapshot.read(file, DECODER)).isInstanceOf(IOException.class).hasMessageContaining("trailer");
    }

    @Test
    void shouldRefuseASnapshotWhoseKeysAreOutOfOrderOrRepeated() throws IOException {
        StoredResource a = stored("A", "n", "a", "1", SyncStatus.Synced, Map.of());
        StoredResource b = stored("A", "n", "b", "1", SyncStatus.Synced, Map.of());
        Path unordered = dir.resolve("unordered.snapshot");
        ViewSnapshot.write(unordered, header(new long[] {2}, 2), List.of(b, a));
        Path repeated = dir.resolve("repeated.snapshot");
        ViewSnapshot.write(repeated, header(new long[] {2}, 2), List.of(a, a));

        assertThatThrownBy(() -> ViewSnapshot.read(unordered, DECODER)).isInstanceOf(IOException.class).hasMessageContaining("order");
        assertThatThrownBy(() -> ViewSnapshot.read(repeated, DECODER)).isInstanceOf(IOException.class).hasMessageContaining("order");
    }

    @Test
    void shouldReplaceAnEarlierSnapshotWhole() throws IOException {
        Path file = dir.resolve("view.snapshot");
        ViewSnapshot.write(file, header(new long[] {1}, 2), List.of(stored("A", "n", "a", "1", SyncStatus.Synced, Map.of()),
            stored("A", "n", "b", "1", SyncStatus.Synced, Map.of())));
        ViewSnapshot.write(file, header(new long[] {9}, 1), List.of(stored("A", "n", "c", "3", SyncStatus.Synced, Map.of())));

        ViewSnapshot.Loaded loaded = ViewSnapshot.read(file, DECODER);

        assertThat(loaded.header().positions()).containsExactly(9);
        assertThat(loaded.byKey().keySet()).containsExactly("A/n/c");
    }

    static byte[] bytes(StoredResource r) {
        return StoredValue.of(r).bytes();
    }

    private static ViewSnapshot.Header header(long[] positions, long count) {
        return new ViewSnapshot.Header(1_000L, "statesync.resources", "topic-id-1", positions, count);
    }

    private static StoredResource stored(String kind, String ns, String name, String version, SyncStatus status,
                                         Map<String, String> labels) {
        Resource r = StoredResourceTest.resource(kind, ns, name, version, status, labels);
        if (status == null) {
            r.getStatus().setSyncStatus(SyncStatus.OutOfSync);
        }
        byte[] bytes = StoredResourceTest.encode(r);
        ResourceSummary s = ResourceSummary.of(r);
        return StoredResource.of(kind + "/" + ns + "/" + name, bytes,
            new ResourceSummary(s.version(), status, s.labelled()), DECODER);
    }
}
