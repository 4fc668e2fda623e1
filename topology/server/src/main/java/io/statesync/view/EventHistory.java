package io.statesync.view;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.CommittedTailer;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import io.statesync.view.internal.EventStore;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happened to each resource, newest first, as {@code kubectl describe} shows it: an index of statesync.events per
 * resource, bounded by {@code events.max.per.resource}, {@code events.max.age.ms} and, across all resources, by
 * {@code events.history.bytes} of heap, its objects included (past it, the longest histories lose their oldest entries
 * first, then the resources whose latest event is the oldest lose theirs); a resource whose events have all passed
 * {@code events.max.age.ms} is dropped. Every instance reads the whole topic (read_committed, from the offsets of {@code events.max.age.ms} ago), so any instance answers for any resource
 * and a restart loses nothing the topic still holds. Repeats of one type, reason and message are aggregated into one
 * entry with a count, as Kubernetes aggregates events.
 */
public final class EventHistory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventHistory.class);

    /** One aggregated event. {@code resourceVersion} and {@code generation} are those of its latest occurrence. */
    public record Entry(String type, String reason, String message, int count, Instant firstTimestamp,
                        Instant lastTimestamp, String resourceVersion, long generation) {
    }

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    /**
     * How often per window a sweep of every resource drops the entries that passed it; the front of the order is
     * pruned at every poll.
     */
    private static final int SWEEPS_PER_WINDOW = 60;
    private final Duration maxAge;
    private final EventStore store;
    private CommittedTailer tailer;
    /** The partitions and their end offsets at the first start; a restart of the loop reads on from where it was. */
    private List<TopicPartition> parts;
    private Map<TopicPartition, Long> end;
    private long pruneAt;
    private volatile boolean ready;
    /** Longest the load waits for its start condition, so that an instance that never becomes ready still shows events. */
    static final Duration HOLD_MAX = Duration.ofSeconds(30);
    private static final long HOLD_CHECK_MS = 50;
    private volatile BooleanSupplier startWhen = () -> true;
    private volatile boolean closing;

    public EventHistory(AppConfig config, TopicNames topics, TopologySerdes serdes) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
        this.maxAge = Duration.ofMillis(config.getLong(ServerConfig.EVENTS_MAX_AGE_MS));
        this.store = new EventStore(config.getInt(ServerConfig.EVENTS_MAX_PER_RESOURCE),
            config.getLong(ServerConfig.EVENTS_HISTORY_BYTES));
    }

    /** The bytes the history's entries cost the heap, as {@link EventStore#bytes} counts them. */
    public long bytes() {
        return store.bytes();
    }

    /** The resources that hold at least one entry. */
    public int resources() {
        return store.resources();
    }

    public void start() {
        start(() -> true);
    }

    /**
     * Starts the poll loop, which first waits until {@code startWhen} holds (checked every {@value #HOLD_CHECK_MS} ms)
     * or {@link #HOLD_MAX} has passed. Reading back an hour of events decodes one record per event, a core's worth of
     * work for seconds at a large instance; the instance holds it until its streams run and its view has loaded, so
     * that a restart does not share its few cores with it. Until it has read them, the events API answers 503.
     */
    public void start(BooleanSupplier startWhen) {
        this.startWhen = startWhen;
        tailer = CommittedTailer.of("statesync-event-history", ReadCommittedConsumers.readCommittedProps(config, "-event-history"),
            Duration.ofMillis(500), new Tail(), config).start();
    }

    /** The supervisor of the poll loop, null before {@link #start}. */
    public LoopSupervisor loop() {
        return tailer == null ? null : tailer.loop();
    }

    /** True once the history holds every event that was committed when it started, within the age bound. */
    public boolean ready() {
        return ready;
    }

    /** The events of one resource ({@code kind/namespace/name}), newest first; empty when there are none. */
    public List<Entry> events(String key) {
        return store.events(key, Instant.now().minus(maxAge));
    }

    /** Reads from the offsets of the window's start; a restart of the loop reads on from the consumer's positions. */
    private final class Tail implements CommittedTailer.Reader {

        @Override
        public void assign(Consumer<String, byte[]> consumer) {
            awaitStartCondition();
            List<TopicPartition> assigned = consumer.partitionsFor(topics.events(), Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(assigned);
            end = consumer.endOffsets(assigned);
            seekToMaxAge(consumer, assigned, end);
            parts = assigned;
            pruneAt = System.nanoTime();
        }

        @Override
        public void polled(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records) {
            records.forEach(EventHistory.this::add);
            if (!ready && parts.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                ready = true;
                LOG.info("Event history loaded: events of {} resources", store.resources());
            }
            store.pruneFront(Instant.now().minus(maxAge));
            if (System.nanoTime() - pruneAt > maxAge.toNanos() / SWEEPS_PER_WINDOW) {
                store.pruneOlderThan(Instant.now().minus(maxAge));
                pruneAt = System.nanoTime();
            }
        }
    }

    /** On the loop's thread, before the first read: waits for the start condition, the hold's end or close. */
    private void awaitStartCondition() {
        long started = System.nanoTime();
        boolean met = awaitStart(() -> closing || startWhen.getAsBoolean(), HOLD_MAX, System::nanoTime, () -> Thread.sleep(HOLD_CHECK_MS));
        LOG.info("Event history starts loading {} ms after its loop started{}", (System.nanoTime() - started) / 1_000_000,
            met ? "" : ", without waiting longer for the streams to run and the resource view to load");
    }

    /** A pause between two checks of the start condition. */
    interface Pause {
        void pause() throws InterruptedException;
    }

    /**
     * Checks {@code condition} until it holds (true) or {@code max} has passed on {@code nanoTime} or the thread is
     * interrupted (false), pausing between checks.
     */
    static boolean awaitStart(BooleanSupplier condition, Duration max, java.util.function.LongSupplier nanoTime, Pause pause) {
        long deadline = nanoTime.getAsLong() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (nanoTime.getAsLong() - deadline >= 0) {
                return false;
            }
            try {
                pause.pause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private void seekToMaxAge(Consumer<String, byte[]> consumer, List<TopicPartition> parts, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> since = new HashMap<>();
        long from = System.currentTimeMillis() - maxAge.toMillis();
        parts.forEach(p -> since.put(p, from));
        Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(since);
        for (TopicPartition p : parts) {
            OffsetAndTimestamp o = offsets.get(p);
            consumer.seek(p, o == null ? end.get(p) : o.offset());
        }
    }

    private void add(ConsumerRecord<String, byte[]> record) {
        if (record.value() == null) {
            return;
        }
        ReconcileEvent e;
        try {
            e = serdes.event().deserializer().deserialize(record.topic(), record.headers(), record.value());
        } catch (RuntimeException bad) {
            LOG.debug("Skipping an event that does not decode at {}-{}@{}", record.topic(), record.partition(), record.offset());
            return;
        }
        add(e);
    }

    /** Takes one decoded event into its resource's history; on the poller's thread. */
    void add(ReconcileEvent e) {
        if (e.getKind().isEmpty() || e.getName().isEmpty()) {
            return;
        }
        store.add(e.getKind() + "/" + e.getNamespace() + "/" + e.getName(), e.getType().name(), e.getReason(),
            e.getMessage(), Objects.requireNonNullElse(e.getTimestamp(), Instant.now()), e.getResourceVersion(),
            e.getGeneration());
    }

    /** Drops what is older than the window; the poll loop does it as it goes. */
    void pruneOlderThan(Instant oldest) {
        store.pruneOlderThan(oldest);
    }

    @Override
    public void close() {
        closing = true;
        if (tailer != null) {
            tailer.close();
        }
    }
}
