package io.statesync.view.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

import io.statesync.view.ResourceView.Change;
import io.statesync.view.ResourceView.Page;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;

/**
 * A list of the view that does not hold the view's lock while it scans: the sorted index is copied a chunk of
 * references at a time, each under the lock for a moment, and the filter (which may decode every resource, for a
 * label selector or a health filter) runs outside it. The topic reader and the watches then wait at most for one
 * chunk's copy, never for a whole scan.
 *
 * <p>The chunks are read at different positions, so the page is made exact at the end: under the lock once more, every
 * key the change ring shows changed since the scan began, within the range the page covers, is looked up again in the
 * index as it stands, and the page then reflects exactly the view's position at that instant, the one it is tagged
 * with. Only when the ring lost some of those changes meanwhile is the page scanned again under the lock, as before.
 */
public final class ChunkedScan {

    /** References copied per hold of the lock. */
    static final int CHUNK = 1_024;

    /** A page and the number of the first change it does not reflect (the ring's next number at its position). */
    public record Result(Page page, long nextSeq) {
    }

    private final ReentrantLock lock;
    private final ResourceIndex index;
    private final ChangeRing ring;

    public ChunkedScan(ReentrantLock lock, ResourceIndex index, ChangeRing ring) {
        this.lock = lock;
        this.index = index;
        this.ring = ring;
    }

    /** A page in key order after {@code afterKey}: at most {@code limit} resources and {@code maxBytes} of them. */
    public Result page(Predicate<StoredResource> filter, String afterKey, int limit, long maxBytes) {
        long startSeq;
        lock.lock();
        try {
            startSeq = ring.nextSeq();
        } finally {
            lock.unlock();
        }
        List<StoredResource> found = new ArrayList<>();
        String end = scan(filter, afterKey, limit, maxBytes, found);
        lock.lock();
        try {
            if (ring.firstSeq() > startSeq) {
                return new Result(index.page(filter, afterKey, limit, maxBytes, ring.position()), ring.nextSeq());
            }
            List<Change> changes = ring.read(startSeq, Integer.MAX_VALUE).changes();
            if (changes.isEmpty()) {
                // Nothing changed during the scan: the page is exact as scanned, and no sorted copy is needed.
                return new Result(new Page(found, ring.position(), end), ring.nextSeq());
            }
            TreeMap<String, StoredResource> sorted = new TreeMap<>();
            found.forEach(r -> sorted.put(r.key(), r));
            patch(sorted, filter, afterKey, end, changes);
            return new Result(trim(sorted, limit, maxBytes, end, ring.position()), ring.nextSeq());
        } finally {
            lock.unlock();
        }
    }

    /** Fills {@code found} from chunks; returns the last key of a page cut short, or null when the scan reached the end. */
    private String scan(Predicate<StoredResource> filter, String afterKey, int limit, long maxBytes,
                        List<StoredResource> found) {
        String cursor = afterKey;
        long bytes = 0;
        while (true) {
            List<StoredResource> chunk;
            lock.lock();
            try {
                chunk = index.chunk(cursor, CHUNK);
            } finally {
                lock.unlock();
            }
            for (StoredResource r : chunk) {
                cursor = r.key();
                if (!filter.test(r)) {
                    continue;
                }
                if (found.size() == limit || !found.isEmpty() && bytes + r.storedBytes() > maxBytes) {
                    return found.get(found.size() - 1).key();
                }
                bytes += r.storedBytes();
                found.add(r);
            }
            if (chunk.size() < CHUNK) {
                return null;
            }
        }
    }

    /** Brings each key in (afterKey, end] that {@code changes} name to the index's current state. Under the lock. */
    private void patch(TreeMap<String, StoredResource> found, Predicate<StoredResource> filter, String afterKey, String end,
                       List<Change> changes) {
        Set<String> seen = new HashSet<>();
        for (Change c : changes) {
            String key = c.key();
            boolean inRange = (afterKey == null || key.compareTo(afterKey) > 0) && (end == null || key.compareTo(end) <= 0);
            if (!inRange || !seen.add(key)) {
                continue;
            }
            found.remove(key);
            StoredResource now = index.get(key);
            if (now != null && filter.test(now)) {
                found.put(key, now);
            }
        }
    }

    /** The page within its bounds again, since keys may have entered it; where the next page starts. */
    private static Page trim(TreeMap<String, StoredResource> found, int limit, long maxBytes, String end, WatchPosition position) {
        List<StoredResource> items = new ArrayList<>(Math.min(found.size(), limit));
        long bytes = 0;
        for (Map.Entry<String, StoredResource> e : found.entrySet()) {
            long size = e.getValue().storedBytes();
            if (items.size() == limit || !items.isEmpty() && bytes + size > maxBytes) {
                return new Page(items, position, items.get(items.size() - 1).key());
            }
            bytes += size;
            items.add(e.getValue());
        }
        return new Page(items, position, end);
    }
}
