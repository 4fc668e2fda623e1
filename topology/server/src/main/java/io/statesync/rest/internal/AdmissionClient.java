package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.CommittedTailer;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.AdmissionTransport.Answer;
import io.statesync.rest.store.AdmissionTransport.Submission;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of one instance: produces admission requests to statesync.desired, each with an answer id
 * generated here ({@link PendingAnswers}) and the client's request id, and completes the caller's future when the
 * admission event carrying that answer id appears on statesync.events. The request id is only carried along, so that
 * the answer and the logs name it; answers are never matched by it.
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
    /** Derived and checked at construction, so that settings that could let a 504'd write land later stop the start. */
    private final Map<String, Object> producerProps;
    private final PendingAnswers pending = new PendingAnswers();
    private KafkaProducer<String, byte[]> producer;
    /** The reply consumer: positioned at the end once, a restart of its loop reads on from where it was. */
    private CommittedTailer replies;

    public AdmissionClient(AppConfig config, TopicNames topics, TopologySerdes serdes) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
        this.producerProps = WriteProducerSettings.of(config);
    }

    public void start() {
        producer = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer());
        replies = CommittedTailer.of("statesync-admission-replies",
            ReadCommittedConsumers.readCommittedProps(config, "-admission-replies"), Duration.ofMillis(500),
            new CommittedTailer.Reader() {
                @Override
                public void assign(Consumer<String, byte[]> consumer) {
                    ReadCommittedConsumers.assignAtEnd(consumer, topics.events());
                }

                @Override
                public void polled(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records) {
                    records.forEach(AdmissionClient.this::onEvent);
                }
            }, config).start();
    }

    /** The supervisor of the reply consumer's loop, null before {@link #start}. */
    public LoopSupervisor loop() {
        return replies == null ? null : replies.loop();
    }

    /** True once the reply consumer is assigned and positioned at the end of every events partition. */
    public boolean ready() {
        return replies != null && replies.positioned();
    }

    private void onEvent(ConsumerRecord<String, byte[]> record) {
        CompletableFuture<ReconcileEvent> f = pending.claim(
            StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.ANSWER_ID), record.key());
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
     * Produces every write at once, so that they share the producer's batches and one transaction on the pipeline's
     * side, then awaits all answers within one admission.timeout.ms. The answers come in the submissions' order.
     */
    public List<Answer> submitAll(List<Submission> writes) {
        if (!ready()) {
            throw ApiError.unavailable("the admission reply consumer is not ready yet", 1);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs());
        List<PendingAnswers.Pending> answers = new ArrayList<>(writes.size());
        try {
            boolean[] lastOnPartition = lastOnPartition(writes);
            for (int i = 0; i < writes.size(); i++) {
                Submission w = writes.get(i);
                PendingAnswers.Pending p = pending.register(w.key());
                answers.add(p);
                ProducerRecord<String, byte[]> rec = record(w, p.id());
                if (lastOnPartition[i]) {
                    rec.headers().add(StatesyncHeaders.COMMIT_REQUESTED, new byte[0]);
                }
                send(rec, p);
            }
            List<Answer> out = new ArrayList<>(writes.size());
            for (int i = 0; i < writes.size(); i++) {
                out.add(await(answers.get(i), writes.get(i).requestId(), deadline));
            }
            return out;
        } finally {
            answers.forEach(pending::forget);
        }
    }

    /**
     * Produces a write to a status subresource to statesync.observed, marked status-only and awaited, with its
     * precondition, and awaits its answer within admission.timeout.ms as {@link #submitAll} awaits a desired write's.
     */
    public Answer submitStatus(String key, ObservedState report, String requestId, String expectedVersion) {
        if (!ready()) {
            throw ApiError.unavailable("the admission reply consumer is not ready yet", 1);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs());
        PendingAnswers.Pending p = pending.register(key);
        try {
            ProducerRecord<String, byte[]> rec = new ProducerRecord<>(topics.observed(), key,
                serdes.observed().serializer().serialize(topics.observed(), report));
            rec.headers().add(StatesyncHeaders.ANSWER_ID, StatesyncHeaders.utf8(p.id()))
                .add(StatesyncHeaders.OBSERVED_STATUS_ONLY, new byte[0])
                .add(StatesyncHeaders.COMMIT_REQUESTED, new byte[0]);
            if (requestId != null) {
                rec.headers().add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(requestId));
            }
            if (expectedVersion != null && !expectedVersion.isEmpty()) {
                rec.headers().add(StatesyncHeaders.EXPECTED_RESOURCE_VERSION, StatesyncHeaders.utf8(expectedVersion));
            }
            send(rec, p);
            return await(p, requestId, deadline);
        } finally {
            pending.forget(p);
        }
    }

    private void send(ProducerRecord<String, byte[]> rec, PendingAnswers.Pending p) {
        producer.send(rec, (md, e) -> {
            if (e != null) {
                p.answer().completeExceptionally(e);
            } else {
                p.recorded().set(true);
            }
        });
    }

    /** Which writes are the last of this batch on their partition, as the producer's default partitioner places keys. */
    private boolean[] lastOnPartition(List<Submission> writes) {
        boolean[] last = new boolean[writes.size()];
        if (writes.size() == 1) {
            last[0] = true;
            return last;
        }
        int partitions = producer.partitionsFor(topics.desired()).size();
        Set<Integer> seen = new HashSet<>();
        for (int i = writes.size() - 1; i >= 0; i--) {
            byte[] key = writes.get(i).key().getBytes(StandardCharsets.UTF_8);
            last[i] = seen.add(Utils.toPositive(Utils.murmur2(key)) % partitions);
        }
        return last;
    }

    private ProducerRecord<String, byte[]> record(Submission w, String answerId) {
        ProducerRecord<String, byte[]> rec = new ProducerRecord<>(topics.desired(), w.key(),
            w.desired() == null ? null : serdes.desired().serializer().serialize(topics.desired(), w.desired()));
        rec.headers().add(StatesyncHeaders.ANSWER_ID, StatesyncHeaders.utf8(answerId));
        if (w.requestId() != null) {
            rec.headers().add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(w.requestId()));
        }
        String expected = w.deleteExpectedVersion();
        if (w.desired() == null && expected != null && !expected.isEmpty()) {
            rec.headers().add(StatesyncHeaders.EXPECTED_RESOURCE_VERSION, StatesyncHeaders.utf8(expected));
        }
        if (w.desired() == null && w.propagationPolicy() != null) {
            rec.headers().add(StatesyncHeaders.PROPAGATION_POLICY, StatesyncHeaders.utf8(w.propagationPolicy()));
        }
        return rec;
    }

    private Answer await(PendingAnswers.Pending p, String requestId, long deadline) {
        try {
            return new Answer(p.answer().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS), null);
        } catch (TimeoutException e) {
            LOG.info("No admission answer within {} ms for {} (request id {}, answer id {}, acknowledged by Kafka: {})",
                timeoutMs(), p.key(), requestId, p.id(), p.recorded().get());
            return new Answer(null, ApiError.timeout(unknownOutcome(timeoutMs(), requestId, p.recorded().get())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(null, ApiError.unavailable("interrupted", 1));
        } catch (ExecutionException e) {
            return new Answer(null, ApiError.unavailable("the write could not be produced: " + e.getCause().getMessage()
                + "; if Kafka received it before the failure it will still be admitted, so GET the resource before "
                + "re-sending a write that is not safe to repeat", 1));
        }
    }

    /**
     * The message of a 504: the write's outcome is unknown, never "failed", since a record Kafka acknowledged is
     * admitted whenever the pipeline reaches it; and how to find out. The producer's own bounds
     * ({@link WriteProducerSettings}) make sure a record not acknowledged by now never will be.
     */
    static String unknownOutcome(long timeoutMs, String requestId, boolean recorded) {
        return "no admission answer within " + timeoutMs + " ms (request id " + requestId + "): the outcome is UNKNOWN. "
            + (recorded ? "Kafka acknowledged the write, so admission will still apply or refuse it when it reaches it. "
                : "Kafka had not acknowledged the write yet; it may still be recorded and applied. ")
            + "To find out, GET the resource and compare metadata.resourceVersion and metadata.generation with the "
            + "values before this write (for a create-only write, check whether the resource exists); re-send only a "
            + "write that is safe to repeat (docs/rest.md lists them: a JSON patch that adds to a list is not)";
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
        return config.getLong(ServerConfig.ADMISSION_TIMEOUT_MS);
    }


    @Override
    public void close() {
        if (replies != null) {
            replies.close();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        pending.cancelAll();
    }
}
