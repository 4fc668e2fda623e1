package io.statesync.view;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.view.internal.ChangeRing;
import io.statesync.view.internal.ChunkedScan;
import io.statesync.view.internal.ResourceIndex;
import io.statesync.view.internal.SnapshotKeeper;
import io.statesync.view.internal.TopicReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's view of statesync.resources, read_committed from the beginning: the latest Resource per key
 * plus a bounded ring of recent changes, both tagged with positions (per partition, the offset of the next record).
 *
 * <p>Lists and watches are served from here rather than from the partitioned stores because only one reader
 * that applies records in log order can hand out a list together with the exact position it reflects: a
 * watch from that position then replays the ring from exactly there, without gap or duplicate. Point reads are
 * served from here too when the view is as new as the caller needs ({@link #get}, without the lock); otherwise they
 * go to the key's owner (interactive queries), whose store also holds versions admitted but not yet published.
 *
 * <p>The parts, in {@code io.statesync.view.internal}: a {@link TopicReader} tails the topic on its own thread and
 * hands each poll here, which applies it to the {@link ResourceIndex} (the latest resource per key, in key order)
 * and the {@link ChangeRing} (recent changes and the position) under one lock, so that a batch of changes and the
 * position after it are always taken together. A list does not hold that lock while it scans: the
 * {@link ChunkedScan} copies the index a chunk at a time and then brings the page to one position, the one it is
 * tagged with, so a long label-selector scan never stalls the reader or the watches. The {@link SnapshotKeeper}
 * starts the view from the snapshot file a clean stop wrote, moves values off the heap into a new one while it runs,
 * and writes it again at the next stop.
 */
public final class ResourceView implements AutoCloseable {

    /** Changes kept for watches by default ({@code view.ring.capacity}); an older position is 410 Gone and the client re-lists. */
    public static final int RING_CAPACITY = 200_000;

    private static final Logger LOG = LoggerFactory.getLogger(ResourceView.class);

    public enum Type { ADDED, MODIFIED, DELETED }

    /**
     * One change; {@code offset} is the record's offset in {@code partition}, {@code seq} the view's own order.
     * {@code previous} is the object before it (null for ADDED), so a filtered watch can tell when an object starts
     * or stops matching.
     */
    public record Change(long seq, int partition, long offset, Type type, String key, StoredResource resource,
                         StoredResource previous) {
    }

    /** Changes from a cursor on; {@code positionAfter} is set when they reach the view's newest change. */
    public record Batch(List<Change> changes, long nextSeq, WatchPosition positionAfter, boolean evicted) {
    }

    /** See {@link #startWatch}. */
    public record WatchStart(String replayProblem, long firstSeq, long nextSeq, WatchPosition position, List<StoredResource> items,
                             String nextKey) {
    }

    /** A page of a list; {@code nextKey} is null on the last page. */
    public record Page(List<StoredResource> items, WatchPosition position, String nextKey) {
    }

    /** What the view needs to know of statesync.resources to judge a snapshot of itself. */
    public record TopicFacts(String topicId, long deleteRetentionMs) {
    }

    private final String topic;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ResourceIndex index = new ResourceIndex();
    private final ChangeRing ring;
    private final ChunkedScan scans;
    /** Resources per kind, so that the Kubernetes API's discovery names every kind that has resources without a scan. */
    private final java.util.concurrent.ConcurrentHashMap<String, Integer> kinds = new java.util.concurrent.ConcurrentHashMap<>();
    private final TopicReader reader;
    private final SnapshotKeeper snapshots;
    private volatile boolean closed;
    /** The ring's next sequence number as of the last applied poll, readable without the lock. */
    private volatile long publishedSeq;
    /** Told after each applied poll, outside the lock, on the reader's thread: they must only hand work off. */
    private final List<Runnable> changeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** {@code topicFacts} is asked once per start, and only when there is a snapshot to judge or write. */
    public ResourceView(AppConfig config, TopicNames topics, TopologySerdes serdes, Supplier<TopicFacts> topicFacts) {
        this.topic = topics.resources();
        this.ring = new ChangeRing(config.getInt(ServerConfig.VIEW_RING_CAPACITY), config.getLong(ServerConfig.VIEW_RING_BYTES));
        this.scans = new ChunkedScan(lock, index, ring);
        var deserializer = serdes.resource().deserializer();
        StoredResource.Decoder decoder = bytes -> deserializer.deserialize(topic, bytes);
        this.snapshots = new SnapshotKeeper(config, topics, topicFacts, decoder, index, ring, lock);
        this.reader = new TopicReader(config, topic, decoder, new Updates());
    }

    public void start() {
        reader.start();
    }

    /** The supervisor of the view's reader, for readiness and liveness; null before {@link #start}. */
    public io.statesync.topology.LoopSupervisor loop() {
        return reader.loop();
    }

    /** Whether the view has read the whole topic once and is still reading it. */
    public boolean ready() {
        return reader.caughtUp();
    }

    /** The resources this view holds. */
    public int size() {
        return index.size();
    }

    /** The kinds of which this view holds at least one resource, sorted. */
    public java.util.SortedSet<String> kinds() {
        return new java.util.TreeSet<>(kinds.keySet());
    }

    /** The bytes of resources this view holds on the heap; the rest are mapped from its snapshot file. */
    public long heapValueBytes() {
        return snapshots.heapBytes();
    }

    /** How many resources this view took from its snapshot at start; 0 when it read the topic from the beginning. */
    public int restoredFromSnapshot() {
        return snapshots.restored();
    }

    /** The latest committed resource of {@code key} this view has read, or null when it has none. */
    public StoredResource get(String key) {
        return index.get(key);
    }

    /**
     * Up to {@code max} resources whose keys start with {@code prefix} ({@code Kind/} for one kind's), in key order,
     * read without scanning the rest of the view.
     */
    public List<StoredResource> withKeyPrefix(String prefix, int max) {
        lock.lock();
        try {
            return index.prefixed(prefix, max);
        } finally {
            lock.unlock();
        }
    }

    /** A page of the current view in key order, after {@code afterKey}, with the position it reflects. */
    public Page list(Predicate<StoredResource> filter, String afterKey, int limit) {
        return list(filter, afterKey, limit, Long.MAX_VALUE);
    }

    /**
     * A page as {@link #list(Predicate, String, int)}, cut short once its resources hold {@code maxBytes}
     * ({@link StoredResource#storedBytes}; the first always fits): {@code nextKey} then says where the next page starts.
     */
    public Page list(Predicate<StoredResource> filter, String afterKey, int limit, long maxBytes) {
        return scans.page(filter, afterKey, limit, maxBytes).page();
    }

    /** The current position of this view: per partition, the offset of the next record it reads. */
    public WatchPosition position() {
        lock.lock();
        try {
            return ring.position();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits (up to {@code maxWait}) until the view has read up to {@code target} (e.g. the
     * committed end offsets taken when a list request arrived), so that a list right after an accepted write shows it.
     *
     * @return whether the view reached {@code target}
     */
    public boolean awaitPosition(WatchPosition target, Duration maxWait) throws InterruptedException {
        long[] offsets = target.offsets();
        long nanos = maxWait.toNanos();
        lock.lock();
        try {
            while (!ring.reached(offsets) && nanos > 0 && !closed) {
                nanos = changed.awaitNanos(nanos);
            }
            return ring.reached(offsets);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits (up to {@code maxWait}) until the view holds {@code key} at {@code version} or newer, and returns that copy;
     * null when it did not arrive in time.
     */
    public StoredResource awaitVersion(String key, long version, Duration maxWait) throws InterruptedException {
        StoredResource r = index.get(key);
        if (atLeast(r, version)) {
            return r;
        }
        long nanos = maxWait.toNanos();
        lock.lock();
        try {
            while (!atLeast(r = index.get(key), version) && nanos > 0 && !closed) {
                nanos = changed.awaitNanos(nanos);
            }
            return atLeast(r, version) ? r : null;
        } finally {
            lock.unlock();
        }
    }

    private static boolean atLeast(StoredResource r, long version) {
        return r != null && r.version() >= version;
    }

    /**
     * Where a watch starts, taken at one instant: why {@code from} cannot be replayed, or null
     * (also when {@code from} is null); the oldest change in the ring and the number of the next one; the position;
     * and, when {@code list} is set, the current resources matching {@code filter} after {@code afterKey} (all when
     * null) in key order, at most {@code maxBytes} of them, with the last key of a page cut short as {@code nextKey}.
     * A watch replays the ring from {@code firstSeq} up to {@code nextSeq}, sends those resources, and then follows the
     * ring from {@code nextSeq} on: taken together, nothing falls between the three.
     */
    public WatchStart startWatch(WatchPosition from, Predicate<StoredResource> filter, String afterKey, boolean list,
                                 long maxBytes) {
        lock.lock();
        try {
            String problem = from == null ? null : ring.replayProblem(from.offsets(), topic);
            if (!list || problem != null) {
                return new WatchStart(problem, ring.firstSeq(), ring.nextSeq(), ring.position(), List.of(), null);
            }
        } finally {
            lock.unlock();
        }
        // Scanned outside the lock; the replay check is taken again after it, at a later instant, which only finds
        // more evicted: a watch whose changes survived until then has them all from its cursor to the scan's position.
        ChunkedScan.Result scan = scans.page(filter, afterKey, Integer.MAX_VALUE, maxBytes);
        lock.lock();
        try {
            String problem = from == null ? null : ring.replayProblem(from.offsets(), topic);
            return new WatchStart(problem, Math.min(ring.firstSeq(), scan.nextSeq()), scan.nextSeq(), scan.page().position(),
                problem == null ? scan.page().items() : List.of(), problem == null ? scan.page().nextKey() : null);
        } finally {
            lock.unlock();
        }
    }

    /** Changes with {@code seq >= fromSeq}, at most {@code max}, waiting up to {@code maxWait} when there are none. */
    public Batch await(long fromSeq, int max, Duration maxWait) throws InterruptedException {
        lock.lock();
        try {
            long nanos = maxWait.toNanos();
            while (ring.nextSeq() <= fromSeq && nanos > 0 && !closed) {
                nanos = changed.awaitNanos(nanos);
            }
            return ring.read(fromSeq, max);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells {@code listener} after each batch of records the view applied and once at close, on the reader's thread and
     * outside the lock, so that a waiting watch can be woken without a thread that blocks for it.
     */
    public void onChange(Runnable listener) {
        changeListeners.add(listener);
    }

    /** The number the next change will get, as of the last applied poll; without the lock. */
    public long nextSeq() {
        return publishedSeq;
    }

    private void tellListeners() {
        for (Runnable listener : changeListeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("A resource view change listener failed", e);
            }
        }
    }

    /** Changes behind the newest of a watcher at {@code seq}; the basis of the slow-client cut-off. */
    public long backlog(long seq) {
        lock.lock();
        try {
            return ring.backlog(seq);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        reader.close();
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        tellListeners();
        // With the reader stopped nothing changes the view any more: it is written as it stands, at its position.
        snapshots.close(() -> index.sortedLive() && !reader.failed() && reader.stopped());
    }

    /** What the reader reports, applied on its thread. */
    private final class Updates implements TopicReader.Listener {

        @Override
        public long[] assigned(long[] logStart, long[] logEnd) {
            long records = 0;
            for (int p = 0; p < logStart.length; p++) {
                records += logEnd[p] - logStart[p];
            }
            index.expect(records);
            lock.lock();
            try {
                ring.startAt(logStart);
            } finally {
                lock.unlock();
            }
            long[] from = snapshots.startFrom(logStart, logEnd);
            if (from == null) {
                index.loadFromBeginning(records);
            }
            return from;
        }

        @Override
        public void polled(ConsumerRecords<String, byte[]> records, long[] positions) {
            lock.lock();
            try {
                records.forEach(this::apply);
                ring.advance(positions);
                publishedSeq = ring.nextSeq();
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            tellListeners();
        }

        @Override
        public void caughtUp(long loadStartNanos) {
            finishLoad(loadStartNanos);
            if (snapshots.restored() > 0) {
                recountKinds();
            }
            snapshots.loaded();
        }

        @Override
        public void idle() {
            snapshots.spillIfDue();
        }

        /** Builds the sorted map once the first catch-up is done, unless the view started from a snapshot and kept it. */
        private void finishLoad(long loadStart) {
            long sortStart = System.nanoTime();
            if (!index.sortedLive()) {
                ConcurrentSkipListMap<String, StoredResource> sorted = index.sortLoad();
                lock.lock();
                try {
                    index.useSorted(sorted);
                } finally {
                    lock.unlock();
                }
            }
            long now = System.nanoTime();
            LOG.info("Resource view loaded: {} resources ({} from the snapshot) and {} changes read in {} ms (sorting them took {} ms)",
                index.size(), snapshots.restored(), ring.nextSeq(), (now - loadStart) / 1_000_000, (now - sortStart) / 1_000_000);
        }

        /** A snapshot's resources enter the index without passing {@link #apply}; they are counted once loaded. */
        private void recountKinds() {
            lock.lock();
            try {
                kinds.clear();
                index.page(r -> {
                    countKind(r.key(), 1);
                    return false;
                }, null, 1, null);
            } finally {
                lock.unlock();
            }
        }

        private void countKind(String key, int delta) {
            if (delta != 0) {
                kinds.compute(key.substring(0, key.indexOf('/')), (k, n) -> {
                    int next = (n == null ? 0 : n) + delta;
                    return next <= 0 ? null : next;
                });
            }
        }

        private void apply(ConsumerRecord<String, byte[]> r) {
            // Looked up first: the previous resource goes to the ring, and its key string is reused below.
            StoredResource previous = index.get(r.key());
            // The map's key string is kept, so a resource written many times holds one copy of its key.
            String key = previous == null ? r.key() : previous.key();
            StoredResource now = null;
            if (r.value() != null) {
                now = reader.decode(key, r);
                if (now == null) {
                    return;
                }
            }
            index.put(key, previous, now);
            countKind(key, (now == null ? 0 : 1) - (previous == null ? 0 : 1));
            snapshots.changed(previous, now);
            if (now != null || previous != null) {
                ring.add(r.partition(), r.offset(), key, now, previous);
            }
        }
    }
}
