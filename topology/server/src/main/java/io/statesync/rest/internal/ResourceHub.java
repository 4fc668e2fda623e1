package io.statesync.rest.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.statesync.config.AppConfig;
import io.statesync.rest.WatchPosition;
import io.statesync.topology.ResourceSummary;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's view of statesync.resources, read_committed from the beginning: the latest Resource per key
 * plus a bounded ring of recent changes, both tagged with positions (per-partition offsets).
 *
 * <p>Lists and watches are served from here rather than from the partitioned stores because only one reader
 * that applies records in log order can hand out a list together with the exact position it reflects: a
 * watch from that position then replays the ring from exactly there, without gap or duplicate. Point reads are
 * served from here too when the view is as new as the caller needs ({@link #get}, without the lock); otherwise they
 * go to the key's owner (interactive queries), whose store also holds versions admitted but not yet published.
 */
public final class ResourceHub implements AutoCloseable {

    /** Changes kept for watches; a position older than the ring is answered 410 Gone and the client re-lists. */
    public static final int RING_CAPACITY = 200_000;

    /** The record count above which the point-read map is not sized ahead (it then grows as usual). */
    private static final long MAX_PRESIZE = 1L << 24;

    private static final Logger LOG = LoggerFactory.getLogger(ResourceHub.class);

    public enum Type { ADDED, MODIFIED, DELETED }

    /**
     * One change; {@code offset} is the record's offset in {@code partition}, {@code seq} the hub's own order.
     * {@code previous} is the object before it (null for ADDED), so a filtered watch can tell when an object starts
     * or stops matching.
     */
    public record Change(long seq, int partition, long offset, Type type, String key, StoredResource resource,
                         StoredResource previous) {
    }

    /** Changes from a cursor on; {@code positionAfter} is set when they reach the hub's head. */
    public record Batch(List<Change> changes, long nextSeq, WatchPosition positionAfter, boolean evicted) {
    }

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final StoredResource.Decoder decoder;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /**
     * Lists read it in key order under {@link #lock}; only the poller changes it, under the lock. Empty until the
     * first catch-up ends: it is then built in one pass from {@link #byKey} ({@link #finishLoad}).
     */
    private TreeMap<String, StoredResource> current = new TreeMap<>();
    /**
     * The same objects by key, for point reads without the lock (hashing is cheaper than the sorted map's compares).
     * Replaced once, before the first record, by a map sized for the topic (so that loading never rehashes).
     */
    private volatile ConcurrentHashMap<String, StoredResource> byKey = new ConcurrentHashMap<>();
    private final Change[] ring = new Change[RING_CAPACITY];
    private long oldestSeq;
    private KafkaConsumer<String, byte[]> consumer;
    private Thread poller;
    private long[] positions;
    private long[] startOffsets;
    private long[] evictedBelow;
    private long nextSeq;
    private volatile boolean ready;
    private volatile boolean closed;
    /**
     * Whether {@link #current} is kept up to date record by record: from the first catch-up on, or from the start when
     * the view began from a snapshot (whose resources come in key order, so the tree is built without a sort).
     */
    private boolean treeLive;
    /** Until the first catch-up ends without a snapshot: its records, for building {@link #current} once; or null. */
    private LoadSorter loadSorter;
    /** Set when the poll loop died: the view may then be behind its positions, and is not written as a snapshot. */
    private volatile boolean failed;
    /** Null when snapshots are disabled. */
    private final ViewSnapshotStore snapshots;
    private final ViewSpill spill;
    private volatile int restoredFromSnapshot;
    /** The bytes of values in the snapshot the view started from; the poller's own. */
    private long snapshotValueBytes;

    /** {@code topicFacts} is asked once per start, and only when there is a snapshot to judge or write. */
    public ResourceHub(AppConfig config, TopicNames topics, TopologySerdes serdes, Supplier<TopicFacts> topicFacts) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
        var deserializer = serdes.resource().deserializer();
        this.decoder = bytes -> deserializer.deserialize(topics.resources(), bytes);
        this.snapshots = ViewSnapshotStore.fromConfig(config, topics, topicFacts, decoder);
        this.spill = new ViewSpill(snapshots, config.getLong(AppConfig.VIEW_SPILL_BYTES), config.getLong(AppConfig.VIEW_SPILL_INTERVAL_MS));
    }

    /** What the view needs to know of statesync.resources to judge a snapshot of itself. */
    public record TopicFacts(String topicId, long deleteRetentionMs) {
    }

    public void start() {
        consumer = new KafkaConsumer<>(ConsumerThreads.bulkReadProps(config, "-resource-hub"),
            new StringDeserializer(), new ByteArrayDeserializer());
        poller = ConsumerThreads.startDaemon(this::pollLoop, "statesync-resource-hub");
    }

    public boolean ready() {
        return ready;
    }

    /** The resources this view holds. */
    public int size() {
        return byKey.size();
    }

    /** The bytes of resources this view holds on the heap; the rest are mapped from its snapshot file. */
    public long heapValueBytes() {
        return spill.heapBytes();
    }

    /** How many resources this view took from its snapshot at start; 0 when it read the topic from the beginning. */
    public int restoredFromSnapshot() {
        return restoredFromSnapshot;
    }

    private void pollLoop() {
        long loadStart = System.nanoTime();
        try {
            List<TopicPartition> parts = assignAll();
            while (!closed) {
                var records = consumer.poll(Duration.ofMillis(100));
                lock.lock();
                try {
                    records.forEach(this::apply);
                    parts.forEach(tp -> positions[tp.partition()] = Math.max(positions[tp.partition()], consumer.position(tp)));
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
                if (!ready && parts.stream().allMatch(tp -> consumer.currentLag(tp).orElse(1) == 0)) {
                    finishLoad(loadStart);
                    spill.loaded(System.currentTimeMillis(), snapshotValueBytes);
                    ready = true;
                }
                if (ready) {
                    spillIfDue();
                }
            }
        } catch (WakeupException e) {
            // close() woke us up
        } catch (RuntimeException e) {
            failed = true;
            LOG.error("Resource hub stopped; lists and watches are unavailable", e);
        } finally {
            ready = false;
        }
    }

    private List<TopicPartition> assignAll() {
        List<TopicPartition> parts = consumer.partitionsFor(topics.resources(), Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition())).sorted((a, b) -> a.partition() - b.partition()).toList();
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        long[] begin = offsets(parts, consumer.beginningOffsets(parts));
        long[] end = offsets(parts, consumer.endOffsets(parts));
        long records = 0;
        for (int p = 0; p < begin.length; p++) {
            records += end[p] - begin[p];
        }
        byKey = new ConcurrentHashMap<>((int) Math.min(records, MAX_PRESIZE));
        lock.lock();
        try {
            positions = begin.clone();
            startOffsets = begin.clone();
            evictedBelow = begin.clone();
        } finally {
            lock.unlock();
        }
        ViewSnapshot.Loaded snapshot = snapshots == null ? null : snapshots.load(begin, end);
        if (snapshot != null) {
            startFrom(parts, snapshot);
        } else {
            loadSorter = LoadSorter.forRecords(records);
        }
        return parts;
    }

    private static long[] offsets(List<TopicPartition> parts, Map<TopicPartition, Long> byPartition) {
        long[] out = new long[parts.size()];
        parts.forEach(tp -> out[tp.partition()] = byPartition.get(tp));
        return out;
    }

    /**
     * Takes the snapshot's resources and position; the topic is then read from there. Changes before that position are
     * not in the ring, so a watch from an older position is answered 410 Gone and re-lists, as after any ring eviction.
     */
    private void startFrom(List<TopicPartition> parts, ViewSnapshot.Loaded snapshot) {
        TreeMap<String, StoredResource> tree = snapshot.byKey();
        // One put each: putAll presizes for the incoming count again and doubled the already presized table (1M keys).
        for (StoredResource r : tree.values()) {
            byKey.put(r.key(), r);
            snapshotValueBytes += r.valueLength();
        }
        lock.lock();
        try {
            current = tree;
            positions = snapshot.header().positions().clone();
            evictedBelow = positions.clone();
        } finally {
            lock.unlock();
        }
        parts.forEach(tp -> consumer.seek(tp, positions[tp.partition()]));
        treeLive = true;
        restoredFromSnapshot = tree.size();
    }

    private void apply(ConsumerRecord<String, byte[]> r) {
        StoredResource res = null;
        // Looked up by hash: the sorted map's put or remove below is then its only walk per record.
        ConcurrentHashMap<String, StoredResource> map = byKey;
        StoredResource previous = map.get(r.key());
        // The map's key string is kept, so a resource written many times holds one copy of its key.
        String key = previous == null ? r.key() : previous.key();
        if (r.value() != null) {
            try {
                res = StoredResource.of(key, r.value(), summary(r), decoder);
            } catch (RuntimeException e) {
                LOG.warn("Skipping undecodable resource at {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), e.toString());
                return;
            }
        }
        if (res == null) {
            map.remove(key);
        } else {
            map.put(key, res);
        }
        spill.changed(previous, res);
        // Until the first catch-up ends only the hash map is kept; the tree is then built once (finishLoad).
        if (treeLive) {
            if (res == null) {
                current.remove(key);
            } else {
                current.put(key, res);
            }
        } else if (loadSorter != null && (res != null || previous != null) && !loadSorter.add(key, res)) {
            loadSorter = null;
        }
        if (res == null && previous == null) {
            return;
        }
        Type type = res == null ? Type.DELETED : previous == null ? Type.ADDED : Type.MODIFIED;
        if (nextSeq - oldestSeq == RING_CAPACITY) {
            Change gone = ring[(int) (oldestSeq++ % RING_CAPACITY)];
            evictedBelow[gone.partition()] = Math.max(evictedBelow[gone.partition()], gone.offset() + 1);
        }
        ring[(int) (nextSeq % RING_CAPACITY)] = new Change(nextSeq, r.partition(), r.offset(), type, key,
            res == null ? deleted(key, previous) : res, previous);
        nextSeq++;
    }

    /**
     * Builds the sorted view once the first catch-up is done: a million keys kept sorted record by record, in the hash
     * order the partitions deliver them, cost 1.9 s of tree walks and rebalancing (with the hash map growing as it
     * went); sorted once and built in linear time, with the hash map sized ahead, 0.93 s ({@code ViewBuildBenchmark});
     * the sort itself then by packed key bytes ({@link KeyOrder}), which reaches each key once instead of at every
     * comparison; and now from keys packed as they were read ({@link LoadSorter}), which reaches none.
     */
    private void finishLoad(long loadStart) {
        long sortStart = System.nanoTime();
        if (!treeLive) {
            TreeMap<String, StoredResource> tree = sortedLoad();
            lock.lock();
            try {
                current = tree;
            } finally {
                lock.unlock();
            }
            treeLive = true;
        }
        long now = System.nanoTime();
        LOG.info("Resource view loaded: {} resources ({} from the snapshot) and {} changes read in {} ms (sorting them took {} ms)",
            byKey.size(), restoredFromSnapshot, nextSeq, (now - loadStart) / 1_000_000, (now - sortStart) / 1_000_000);
    }

    /** The tree of the first catch-up: from the records as they were read, else by sorting the hash map's values. */
    private TreeMap<String, StoredResource> sortedLoad() {
        TreeMap<String, StoredResource> tree = loadSorter == null ? null : loadSorter.tree();
        loadSorter = null;
        if (tree != null && tree.size() == byKey.size()) {
            return tree;
        }
        if (tree != null) {
            LOG.warn("The resource view's sorted load holds {} resources but its map {}; sorting the map instead",
                tree.size(), byKey.size());
        }
        return SortedRun.treeOf(byKey.values());
    }

    /** Swaps in the values of a finished snapshot write, and starts the next write when one is due. */
    private void spillIfDue() {
        ViewSpill.Spilled done = spill.finished();
        if (done != null) {
            swapIn(done);
        }
        long now = System.currentTimeMillis();
        if (spill.due(now)) {
            StoredResource[] sorted;
            long[] at;
            lock.lock();
            try {
                sorted = current.values().toArray(new StoredResource[0]);
                at = positions.clone();
            } finally {
                lock.unlock();
            }
            spill.start(at, sorted, now);
        }
    }

    /**
     * Replaces each resource the write took and nothing has changed since with its mapped copy: one pass over the
     * sorted view beside the written array (both in key order), so no key is looked up in the tree.
     */
    private void swapIn(ViewSpill.Spilled spilled) {
        StoredResource[] written = spilled.written();
        StoredResource[] mapped = spilled.mapped();
        long heapBefore = spill.heapBytes();
        int swapped = 0;
        lock.lock();
        try {
            int i = 0;
            for (Map.Entry<String, StoredResource> e : current.entrySet()) {
                while (i < written.length && written[i].key().compareTo(e.getKey()) < 0) {
                    i++;
                }
                if (i == written.length) {
                    break;
                }
                if (e.getValue() == written[i]) {
                    e.setValue(mapped[i]);
                    byKey.replace(e.getKey(), written[i], mapped[i]);
                    spill.mappedIn(written[i]);
                    swapped++;
                }
            }
        } finally {
            lock.unlock();
        }
        LOG.info("Resource view: {} of {} resources now read from the snapshot file; {} MB of values left the heap, {} MB remain",
            swapped, written.length, (heapBefore - spill.heapBytes()) >> 20, spill.heapBytes() >> 20);
    }

    /** From the header when the topology wrote one, so that loading the view decodes nothing; else by decoding. */
    private ResourceSummary summary(ConsumerRecord<String, byte[]> r) {
        ResourceSummary s = ResourceSummary.from(r.headers());
        return s != null ? s : ResourceSummary.of(decoder.apply(r.value()));
    }

    private static StoredResource deleted(String key, StoredResource previous) {
        return previous != null ? previous : StoredResource.absent(key);
    }

    /**
     * Waits (up to {@code maxWait}) until the hub has read up to {@code target} (per-partition offsets, e.g. the
     * committed end offsets taken when a list request arrived), so that a list right after an accepted write shows it.
     */
    public void awaitPosition(long[] target, Duration maxWait) throws InterruptedException {
        long nanos = maxWait.toNanos();
        lock.lock();
        try {
            while (!reached(target) && nanos > 0 && !closed) {
                nanos = changed.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean reached(long[] target) {
        for (int p = 0; p < target.length && p < positions.length; p++) {
            if (positions[p] < target[p]) {
                return false;
            }
        }
        return true;
    }

    /** The latest committed resource of {@code key} this view has read, or null when it has none. */
    public StoredResource get(String key) {
        return byKey.get(key);
    }

    /** A page of the current view in key order, after {@code afterKey}, with the position it reflects. */
    public Page list(Predicate<StoredResource> filter, String afterKey, int limit) {
        lock.lock();
        try {
            Collection<Map.Entry<String, StoredResource>> tail = afterKey == null ? current.entrySet()
                : current.tailMap(afterKey, false).entrySet();
            List<StoredResource> items = new ArrayList<>();
            String last = null;
            boolean more = false;
            for (Map.Entry<String, StoredResource> e : tail) {
                if (!filter.test(e.getValue())) {
                    continue;
                }
                if (items.size() == limit) {
                    more = true;
                    break;
                }
                items.add(e.getValue());
                last = e.getKey();
            }
            return new Page(items, new WatchPosition(positions), more ? last : null);
        } finally {
            lock.unlock();
        }
    }

    /** {@code nextKey} is null on the last page. */
    public record Page(List<StoredResource> items, WatchPosition position, String nextKey) {
    }

    /** The current position of this hub. */
    public WatchPosition position() {
        lock.lock();
        try {
            return new WatchPosition(positions);
        } finally {
            lock.unlock();
        }
    }

    /** Why this hub cannot replay from {@code from}, or null when it can (then {@link #firstSeq} starts the replay). */
    public String replayProblem(WatchPosition from) {
        lock.lock();
        try {
            if (from.partitions() != positions.length) {
                return "the position has " + from.partitions() + " partitions but " + topics.resources() + " has "
                    + positions.length;
            }
            for (int p = 0; p < positions.length; p++) {
                if (from.offset(p) < Math.max(startOffsets[p], evictedBelow[p])) {
                    return "the position is too old for partition " + p + " (offset " + from.offset(p)
                        + ", oldest available " + Math.max(startOffsets[p], evictedBelow[p]) + ")";
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** The sequence number to start a replay from: the oldest change still in the ring. */
    public long firstSeq() {
        lock.lock();
        try {
            return oldestSeq;
        } finally {
            lock.unlock();
        }
    }

    /** Changes with {@code seq >= fromSeq}, at most {@code max}, waiting up to {@code maxWait} when there are none. */
    public Batch await(long fromSeq, int max, Duration maxWait) throws InterruptedException {
        lock.lock();
        try {
            long nanos = maxWait.toNanos();
            while (nextSeq <= fromSeq && nanos > 0 && !closed) {
                nanos = changed.awaitNanos(nanos);
            }
            if (fromSeq < oldestSeq) {
                return new Batch(List.of(), fromSeq, null, true);
            }
            List<Change> out = new ArrayList<>();
            long next = fromSeq;
            while (next < nextSeq && out.size() < max) {
                out.add(ring[(int) (next++ % RING_CAPACITY)]);
            }
            return new Batch(out, next, next == nextSeq ? new WatchPosition(positions) : null, false);
        } finally {
            lock.unlock();
        }
    }

    /** Changes behind the head of a watcher at {@code seq}; the basis of the slow-client cut-off. */
    public long backlog(long seq) {
        lock.lock();
        try {
            return nextSeq - seq;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
        ConsumerThreads.stop(consumer, poller);
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        // With the poller stopped nothing changes the view any more: it is written as it stands, at its position,
        // once a write under way while it ran has finished (both use the same file).
        boolean spillIdle = spill.close();
        if (snapshots != null && spillIdle && treeLive && !failed && poller != null && !poller.isAlive()) {
            snapshots.save(positions.clone(), current.values());
        }
    }
}
