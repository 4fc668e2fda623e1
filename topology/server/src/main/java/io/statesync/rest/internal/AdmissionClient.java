package io.statesync.rest.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.rest.ApiError;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of one instance: produces admission requests to statesync.desired with a request id and
 * completes the caller's future when the admission event with that id appears on statesync.events.
 *
 * <p>One reply consumer per instance reads every partition of the events topic (the answering task may live on
 * any instance), from the end as of startup, read_committed so that an aborted transaction never answers.
 * A future is registered before its record is produced, so an answer can never arrive unclaimed.
 */
public final class AdmissionClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionClient.class);

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final Map<String, CompletableFuture<ReconcileEvent>> pending = new ConcurrentHashMap<>();
    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> consumer;
    private Thread poller;
    private volatile boolean ready;
    private volatile boolean closed;

    public AdmissionClient(AppConfig config, TopicNames topics, TopologySerdes serdes) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
    }

    public void start() {
        producer = new KafkaProducer<>(producerProps(), new StringSerializer(), new ByteArraySerializer());
        consumer = new KafkaConsumer<>(ReadCommittedConsumers.readCommittedProps(config, "-admission-replies"),
            new StringDeserializer(), new ByteArrayDeserializer());
        poller = ReadCommittedConsumers.startDaemon(this::pollLoop, "statesync-admission-replies");
    }

    /** True once the reply consumer is assigned and positioned at the end of every events partition. */
    public boolean ready() {
        return ready;
    }

    private void pollLoop() {
        try {
            List<TopicPartition> parts = consumer.partitionsFor(topics.events(), Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            // seekToEnd is lazy; resolving it now fixes the start before any write of ours can be answered.
            parts.forEach(consumer::position);
            ready = true;
            while (!closed) {
                consumer.poll(Duration.ofMillis(500)).forEach(this::onEvent);
            }
        } catch (WakeupException e) {
            // close() woke us up
        } catch (RuntimeException e) {
            LOG.error("Admission reply consumer stopped; writes will time out", e);
        } finally {
            ready = false;
        }
    }

    private void onEvent(ConsumerRecord<String, byte[]> record) {
        String requestId = StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.REQUEST_ID);
        CompletableFuture<ReconcileEvent> f = requestId == null ? null : pending.remove(requestId);
        if (f == null) {
            return;
        }
        try {
            f.complete(serdes.event().deserializer().deserialize(record.topic(), record.headers(), record.value()));
        } catch (RuntimeException e) {
            f.completeExceptionally(e);
        }
    }

    /**
     * Produces a desired write (or, with {@code desired == null}, a delete tombstone) and waits for its admission event.
     *
     * @throws ApiError 503 while the reply consumer is not ready, 504 when no answer arrives in admission.timeout.ms
     */
    public ReconcileEvent submit(String key, DesiredState desired, String requestId, String deleteExpectedVersion) {
        if (!ready) {
            throw ApiError.unavailable("the admission reply consumer is not ready yet", 1);
        }
        CompletableFuture<ReconcileEvent> answer = new CompletableFuture<>();
        pending.put(requestId, answer);
        try {
            ProducerRecord<String, byte[]> rec = new ProducerRecord<>(topics.desired(), key,
                desired == null ? null : serdes.desired().serializer().serialize(topics.desired(), desired));
            rec.headers().add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(requestId));
            if (desired == null && deleteExpectedVersion != null && !deleteExpectedVersion.isEmpty()) {
                rec.headers().add(StatesyncHeaders.EXPECTED_RESOURCE_VERSION, StatesyncHeaders.utf8(deleteExpectedVersion));
            }
            producer.send(rec).get(timeoutMs(), TimeUnit.MILLISECONDS);
            return answer.get(timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw ApiError.timeout("no admission answer within " + timeoutMs() + " ms (request id " + requestId
                + "); the write may still apply, and re-sending it is safe");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.unavailable("interrupted", 1);
        } catch (ExecutionException e) {
            throw new IllegalStateException("write failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pending.remove(requestId);
        }
    }

    /** Writes a kind policy to statesync.kinds; the global store picks it up on every instance. */
    public void putKind(String kind, KindPolicy policy) {
        if (producer == null) {
            throw ApiError.unavailable("the admission producer is not started yet", 1);
        }
        try {
            producer.send(new ProducerRecord<>(topics.kinds(), kind,
                serdes.kindPolicy().serializer().serialize(topics.kinds(), policy))).get(timeoutMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw ApiError.timeout("the kinds topic did not acknowledge within " + timeoutMs() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiError.unavailable("interrupted", 1);
        } catch (ExecutionException e) {
            throw new IllegalStateException("kind policy write failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    private long timeoutMs() {
        return config.getLong(AppConfig.ADMISSION_TIMEOUT_MS);
    }

    private Map<String, Object> producerProps() {
        Map<String, Object> p = config.clientProps(AppConfig.PRODUCER_PREFIX);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, config.getString(AppConfig.APPLICATION_ID) + "-rest-writer");
        return p;
    }

    @Override
    public void close() {
        closed = true;
        ReadCommittedConsumers.stop(consumer, poller);
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        pending.values().forEach(f -> f.cancel(false));
    }
}
