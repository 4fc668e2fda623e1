package io.statesync.topology;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Value;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A deliberately simple agent for integration tests: it applies every correction's desiredSpec to an
 * in-memory world and reports the result. It records every correction it saw (read_committed) so tests can
 * check for duplicates.
 */
public final class InTestAgent implements AutoCloseable {

    public final Map<String, Value> world = new ConcurrentHashMap<>();
    public final List<Correction> seen = new CopyOnWriteArrayList<>();
    private final TopicNames topics;
    private final KafkaConsumer<String, Correction> consumer;
    private final KafkaProducer<String, ObservedState> producer;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private final Object gate = new Object();
    private boolean held;
    private boolean parked;

    public InTestAgent(String bootstrap, TopologySerdes serdes, TopicNames topics) {
        this.topics = topics;
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, "in-test-agent-" + UUID.randomUUID(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new StringDeserializer(), serdes.correction().deserializer());
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), serdes.observed().serializer());
        this.thread = new Thread(this::loop, "in-test-agent");
        consumer.subscribe(List.of(topics.corrections()));
        thread.start();
    }

    private void loop() {
        while (running.get()) {
            if (!waitWhileHeld()) {
                break;
            }
            for (var rec : consumer.poll(Duration.ofMillis(100))) {
                Correction c = rec.value();
                seen.add(c);
                if (c.getAction() == Action.DELETE) {
                    world.remove(rec.key());
                } else {
                    world.put(rec.key(), c.getDesiredSpec());
                }
                report(rec.key(), c.getUid(), c.getGeneration(), world.get(rec.key()), c.getCommandId());
            }
        }
        consumer.close();
    }

    /**
     * Stops reading corrections, as a busy or disconnected actuator would: corrections issued from now on stay
     * unapplied and unacknowledged in the topic until {@link #release()}. Returns once the agent is idle, so no
     * correction is applied after this returns.
     */
    public void hold() throws InterruptedException {
        synchronized (gate) {
            held = true;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!parked && thread.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("in-test agent did not become idle within 30 s");
                }
                gate.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Resumes reading: the corrections held back are applied in topic order. */
    public void release() {
        synchronized (gate) {
            held = false;
            gate.notifyAll();
        }
    }

    /** Parks the loop while held; false when the agent was closed meanwhile. */
    private boolean waitWhileHeld() {
        synchronized (gate) {
            try {
                while (held && running.get()) {
                    parked = true;
                    gate.notifyAll();
                    gate.wait(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                parked = false;
            }
            return running.get();
        }
    }

    /** Reports a state directly, as an agent that noticed a change would (the tests inject drift with it). */
    public void report(String key, String uid, long generation, Value state, String ack) {
        report(key, uid, generation, state, null, ack);
    }

    /** As {@link #report(String, String, long, Value, String)}, with the run-time {@code status} health rules read. */
    public void report(String key, String uid, long generation, Value state, Value status, String ack) {
        ResourceKey rk = ResourceKey.parse(key);
        producer.send(new ProducerRecord<>(topics.observed(), key, ObservedState.newBuilder().setKind(rk.kind())
            .setNamespace(rk.namespace()).setName(rk.name()).setUid(uid).setObservedGeneration(generation)
            .setState(state).setStatus(status).setObservedAt(Instant.now()).setReporter("in-test-agent")
            .setAckCommandId(ack).build()));
        producer.flush();
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        release();
        thread.join(10_000);
        producer.close();
    }
}
