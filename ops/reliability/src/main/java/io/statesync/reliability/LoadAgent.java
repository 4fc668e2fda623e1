package io.statesync.reliability;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Value;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * An agent without drift injection: it applies each correction's desiredSpec at once and reports it. It records
 * corrections per (uid, generation, attempt) as read with read_committed, so that a correction emitted twice (for
 * example replayed after a kill -9) shows up as a duplicate.
 */
final class LoadAgent implements AutoCloseable {

    private final ScenarioTarget target;
    private final Map<String, List<String>> perAttempt = new ConcurrentHashMap<>();
    private final AtomicLong corrections = new AtomicLong();
    private final KafkaProducer<String, ObservedState> producer;
    private final TopicTail<Correction> tail;

    LoadAgent(ScenarioTarget target) {
        this.target = target;
        Map<String, Object> props = new HashMap<>(target.clientProps());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new StringSerializer(), target.serdes().observed().serializer());
        tail = new TopicTail<>(target.clientProps(), target.topics().corrections(), target.serdes().correction().deserializer(),
            r -> apply(r.key(), r.value()));
    }

    private void apply(String key, Correction c) {
        corrections.incrementAndGet();
        perAttempt.computeIfAbsent(c.getUid() + "/" + c.getGeneration() + "/" + c.getAttempt(),
            k -> new CopyOnWriteArrayList<>()).add(c.getReason() + " " + c.getAction() + " " + c.getCommandId());
        Value state = c.getAction() == Action.DELETE ? null : c.getDesiredSpec();
        producer.send(new ProducerRecord<>(target.topics().observed(), key, ObservedState.newBuilder().setKind(c.getKind())
            .setNamespace(c.getNamespace()).setName(c.getName()).setUid(c.getUid()).setObservedGeneration(c.getGeneration())
            .setState(state).setObservedAt(Instant.now()).setReporter("reliability-agent").setAckCommandId(c.getCommandId())
            .build()));
    }

    long corrections() {
        return corrections.get();
    }

    /** Corrections skipped because they did not decode. */
    long undecodable() {
        return tail.badRecords();
    }

    List<String> undecodableSamples() {
        return tail.badRecordSamples();
    }

    /**
     * Corrections repeated for the same (uid, generation, attempt) with the same reason and action: a replay (same
     * command id) or a second command where in-flight suppression should have held. Must be 0 across crashes.
     */
    long duplicates() {
        return perAttempt.values().stream().mapToLong(l -> l.size() - l.stream().map(LoadAgent::plan).distinct().count()).sum();
    }

    /**
     * Further corrections at the same (uid, generation, attempt) with another plan: e.g. a Missing CREATE for
     * generation 2 superseded by a SpecChanged UPDATE once the agent's report of generation 1 arrives. Counted, not
     * failed: the plan changed because the observation did, so this is not a replay.
     */
    long superseded() {
        return perAttempt.values().stream().mapToLong(l -> l.stream().map(LoadAgent::plan).distinct().count() - 1L).sum();
    }

    /** A few (uid, generation, attempt) with more than one correction, to tell a replay from a new plan. */
    List<String> samples() {
        return perAttempt.entrySet().stream().filter(e -> e.getValue().size() > 1).limit(5)
            .map(e -> e.getKey() + " -> " + e.getValue()).toList();
    }

    private static String plan(String seen) {
        return seen.substring(0, seen.lastIndexOf(' '));
    }

    @Override
    public void close() throws InterruptedException {
        tail.close();
        producer.close();
    }
}
