package io.statesync.view;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happened to each resource, newest first, as {@code kubectl describe} shows it: an index of statesync.events per
 * resource, bounded by {@code events.max.per.resource}, {@code events.max.age.ms} and, across all resources, by
 * {@code events.history.bytes} (past it, the longest histories lose their oldest entries first). Every instance reads the whole
 * topic (read_committed, from the offsets of {@code events.max.age.ms} ago), so any instance answers for any resource
 * and a restart loses nothing the topic still holds. Repeats of one type, reason and message are aggregated into one
 * entry with a count, as Kubernetes aggregates events.
 */
public final class EventHistory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EventHistory.class);
    /** The entry, its instants, strings' headers and its node in the deque, roughly. */
    private static final long ENTRY_OVERHEAD = 200;

    /** One aggregated event. {@code resourceVersion} and {@code generation} are those of its latest occurrence. */
    public record Entry(String type, String reason, String message, int count, Instant firstTimestamp,
                        Instant lastTimestamp, String resourceVersion, long generation) {

        /** What an entry costs the heap, about: its strings' characters twice (UTF-16) and the objects around them. */
        long bytes() {
            return 2L * (type.length() + reason.length() + message.length()
                + (resourceVersion == null ? 0 : resourceVersion.length())) + ENTRY_OVERHEAD;
        }

        boolean sameAs(ReconcileEvent e) {
            return type.equals(e.getType().name()) && reason.equals(e.getReason()) && message.equals(e.getMessage());
        }
    }

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final int maxPerResource;
    private final Duration maxAge;
    private final Map<String, Deque<Entry>> byResource = new ConcurrentHashMap<>();
    private final long maxBytes;
    /** The bytes of the entries held; changed on the poller's thread only. */
    private final java.util.concurrent.atomic.AtomicLong bytes = new java.util.concurrent.atomic.AtomicLong();
    private KafkaConsumer<String, byte[]> consumer;
    private LoopSupervisor poller;
    /** The partitions and their end offsets at the first start; a restart of the loop reads on from where it was. */
    private List<TopicPartition> parts;
    private Map<TopicPartition, Long> end;
    private volatile boolean ready;
    private volatile boolean closed;

    public EventHistory(AppConfig config, TopicNames topics, TopologySerdes serdes) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
        this.maxPerResource = config.getInt(ServerConfig.EVENTS_MAX_PER_RESOURCE);
        this.maxAge = Duration.ofMillis(config.getLong(ServerConfig.EVENTS_MAX_AGE_MS));
        this.maxBytes = config.getLong(ServerConfig.EVENTS_HISTORY_BYTES);
    }

    /** The bytes of the entries the history holds, as {@link Entry#bytes} counts them. */
    public long bytes() {
        return bytes.get();
    }

    public void start() {
        consumer = new KafkaConsumer<>(ReadCommittedConsumers.readCommittedProps(config, "-event-history"),
            new StringDeserializer(), new ByteArrayDeserializer());
        poller = LoopSupervisor.of("statesync-event-history", this::pollLoop, config).start();
    }

    /** The supervisor of the poll loop, null before {@link #start}. */
    public LoopSupervisor loop() {
        return poller;
    }

    /** True once the history holds every event that was committed when it started, within the age bound. */
    public boolean ready() {
        return ready;
    }

    /** The events of one resource ({@code kind/namespace/name}), newest first; empty when there are none. */
    public List<Entry> events(String key) {
        Deque<Entry> d = byResource.get(key);
        if (d == null) {
            return List.of();
        }
        Instant oldest = Instant.now().minus(maxAge);
        List<Entry> out = new ArrayList<>();
        synchronized (d) {
            for (Entry e : d) {
                if (!e.lastTimestamp().isBefore(oldest)) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /** Runs under a {@link LoopSupervisor}: a failure starts it again, reading on from the consumer's positions. */
    private void pollLoop() {
        try {
            if (parts == null) {
                List<TopicPartition> assigned = consumer.partitionsFor(topics.events(), Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                consumer.assign(assigned);
                end = consumer.endOffsets(assigned);
                seekToMaxAge(assigned, end);
                parts = assigned;
            }
            long pruneAt = System.nanoTime();
            while (!closed) {
                consumer.poll(Duration.ofMillis(500)).forEach(this::add);
                if (!ready && parts.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                    ready = true;
                    LOG.info("Event history loaded: events of {} resources", byResource.size());
                }
                if (System.nanoTime() - pruneAt > maxAge.toNanos() / 10) {
                    pruneOlderThan(Instant.now().minus(maxAge));
                    pruneAt = System.nanoTime();
                }
            }
        } catch (WakeupException e) {
            if (!closed) {
                throw e;
            }
        }
    }

    private void seekToMaxAge(List<TopicPartition> parts, Map<TopicPartition, Long> end) {
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
        String key = e.getKind() + "/" + e.getNamespace() + "/" + e.getName();
        Deque<Entry> d = byResource.computeIfAbsent(key, k -> new ArrayDeque<>());
        synchronized (d) {
            aggregate(d, e);
        }
        if (bytes.get() > maxBytes) {
            trimToBudget();
        }
    }

    /**
     * Trims the longest histories first, each from its oldest entry, until the history holds a tenth less than its
     * budget: every resource keeps its newest entries the longest, and a burst of events is trimmed in rounds rather
     * than on every event.
     */
    private void trimToBudget() {
        long target = maxBytes - maxBytes / 10;
        for (int keep = maxPerResource - 1; keep >= 0 && bytes.get() > target; keep--) {
            int longer = keep;
            byResource.entrySet().removeIf(en -> {
                Deque<Entry> d = en.getValue();
                synchronized (d) {
                    while (d.size() > longer && bytes.get() > target) {
                        bytes.addAndGet(-d.removeLast().bytes());
                    }
                    return d.isEmpty();
                }
            });
        }
    }

    /** Counts a repeat of an entry the resource already has, moving it to the front; else adds a new entry. */
    private void aggregate(Deque<Entry> d, ReconcileEvent e) {
        Entry previous = null;
        for (Iterator<Entry> it = d.iterator(); it.hasNext(); ) {
            Entry x = it.next();
            if (x.sameAs(e)) {
                previous = x;
                it.remove();
                bytes.addAndGet(-x.bytes());
                break;
            }
        }
        Instant at = Objects.requireNonNullElse(e.getTimestamp(), Instant.now());
        Entry entry = previous == null
            ? new Entry(e.getType().name(), e.getReason(), e.getMessage(), 1, at, at, e.getResourceVersion(), e.getGeneration())
            : new Entry(previous.type(), previous.reason(), previous.message(), previous.count() + 1,
                previous.firstTimestamp(), at, e.getResourceVersion(), e.getGeneration());
        d.addFirst(entry);
        bytes.addAndGet(entry.bytes());
        while (d.size() > maxPerResource) {
            bytes.addAndGet(-d.removeLast().bytes());
        }
    }

    private void pruneOlderThan(Instant oldest) {
        byResource.entrySet().removeIf(en -> {
            Deque<Entry> d = en.getValue();
            synchronized (d) {
                d.removeIf(x -> {
                    boolean old = x.lastTimestamp().isBefore(oldest);
                    if (old) {
                        bytes.addAndGet(-x.bytes());
                    }
                    return old;
                });
                return d.isEmpty();
            }
        });
    }

    @Override
    public void close() {
        closed = true;
        if (poller != null) {
            poller.stop();
        }
        ReadCommittedConsumers.stop(consumer, poller == null ? null : poller.thread());
    }
}
