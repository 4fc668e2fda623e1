package io.statesync.view.internal;

import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkedScanTest {

    private final ReentrantLock lock = new ReentrantLock();
    private final ResourceIndex index = new ResourceIndex();
    private final ChangeRing ring = new ChangeRing(10_000);
    private long offset;

    @Test
    void shouldLetTheReaderApplyAnUpdateWhileALongScanIsInProgressAndListOnePosition() throws Exception {
        index.useSorted(new TreeMap<>());
        ring.startAt(new long[] {0});
        int count = 3 * ChunkedScan.CHUNK;
        for (int i = 0; i < count; i++) {
            apply(key(i), 1);
        }
        CountDownLatch scanning = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        String blocking = key(ChunkedScan.CHUNK + 10);
        Predicate<StoredResource> slowFilter = r -> {
            if (r.key().equals(blocking)) {
                scanning.countDown();
                await(release);
            }
            return r.version() >= 0;
        };
        ChunkedScan scans = new ChunkedScan(lock, index, ring);
        CompletableFuture<ChunkedScan.Result> list = CompletableFuture.supplyAsync(
            () -> scans.page(slowFilter, null, Integer.MAX_VALUE, Long.MAX_VALUE));
        assertThat(scanning.await(10, TimeUnit.SECONDS)).isTrue();

        // The reader's part, while the scan waits in its filter: it must get the lock at once.
        assertThat(lock.tryLock(1, TimeUnit.SECONDS)).as("the reader gets the lock during a scan").isTrue();
        try {
            apply(key(0), 2);
            apply(key(count - 1), 0);
            index.put("k/n/zz-new", null, resource("k/n/zz-new", 5));
            ring.add(0, offset++, "k/n/zz-new", resource("k/n/zz-new", 5), null);
            ring.advance(new long[] {offset});
        } finally {
            lock.unlock();
        }
        release.countDown();

        ChunkedScan.Result result = list.get(10, TimeUnit.SECONDS);
        assertThat(result.page().position().offsets()).as("the page reflects the position after the update").containsExactly(offset);
        assertThat(result.nextSeq()).isEqualTo(ring.nextSeq());
        assertThat(result.page().items()).hasSize(count + 1);
        assertThat(result.page().items().get(0).version()).as("a key changed before the scan reached it").isEqualTo(2);
        assertThat(result.page().items().get(count).key()).as("a key added behind the scan").isEqualTo("k/n/zz-new");
        assertThat(result.page().items().get(count - 1).version()).as("a key changed after the scan passed it").isEqualTo(0);
    }

    @Test
    void shouldKeepThePageWithinItsLimitWhenKeysEnterItDuringTheScan() {
        index.useSorted(new TreeMap<>());
        ring.startAt(new long[] {0});
        for (int i = 0; i < 10; i++) {
            apply(key(i * 2), 1);
        }
        ChunkedScan scans = new ChunkedScan(lock, index, ring);
        Predicate<StoredResource> addsOne = r -> {
            if (r.key().equals(key(0)) && index.get(key(1)) == null) {
                apply(key(1), 1);
            }
            return true;
        };
        ChunkedScan.Result result = scans.page(addsOne, null, 3, Long.MAX_VALUE);
        assertThat(result.page().items()).extracting(StoredResource::key).containsExactly(key(0), key(1), key(2));
        assertThat(result.page().nextKey()).isEqualTo(key(2));
    }

    private void apply(String key, long version) {
        StoredResource previous = index.get(key);
        StoredResource now = resource(key, version);
        index.put(key, previous, now);
        ring.add(0, offset++, key, now, previous);
        ring.advance(new long[] {offset});
    }

    private static String key(int i) {
        return String.format("k/n/%06d", i);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static StoredResource resource(String key, long version) {
        return StoredResource.of(key, new byte[4], new ResourceSummary(version, SyncStatus.Synced, false), null);
    }
}
