package io.statesync.reliability;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.config.AppConfig;
import io.statesync.reliability.BadRecords.Damage;
import io.statesync.topology.StatesyncHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Bad input: floods statesync.desired and statesync.observed with damaged records, interleaved with good writes,
 * and checks that every damaged record reaches statesync.dlq under a reason that names its damage, that every good
 * write is admitted, and that the app keeps running throughout.
 */
public final class FuzzScenario {

    /** The figures of one run. */
    public record Report(int badSent, int goodSent, int dlqMatched, int goodAccepted, Map<String, Integer> reasons,
                         List<String> problems, boolean appAlwaysRunning, Duration elapsed) {

        public boolean passed() {
            return problems.isEmpty() && dlqMatched == badSent && goodAccepted == goodSent && appAlwaysRunning;
        }
    }

    private final ScenarioTarget target;

    public FuzzScenario(ScenarioTarget target) {
        this.target = target;
    }

    /**
     * @param badRecords how many damaged records to send
     * @param goodEvery  one good write after every this many damaged ones
     */
    public Report run(int badRecords, int goodEvery, long seed, Duration timeout) throws Exception {
        long start = System.nanoTime();
        int hugeBytes = target.config().getInt(AppConfig.SPEC_MAX_BYTES) + 1024;
        BadRecords bad = new BadRecords(target.topics(), target.serdes(), seed, hugeBytes);
        Map<String, Set<String>> expected = new HashMap<>();
        Map<String, String> dlqReasons = new ConcurrentHashMap<>();
        Set<String> accepted = ConcurrentHashMap.newKeySet();
        Set<String> goodIds = new java.util.HashSet<>();
        boolean alwaysRunning = true;
        List<String> undecodableEvents;
        try (TopicTail<byte[]> dlq = new TopicTail<>(target.clientProps(), target.topics().dlq(), new ByteArrayDeserializer(),
                 r -> dlqReasons.put(source(r), String.valueOf(StatesyncHeaders.lastString(r.headers(), StatesyncHeaders.DLQ_ERROR_REASON))));
             TopicTail<ReconcileEvent> events = new TopicTail<>(target.clientProps(), target.topics().events(),
                 target.serdes().event().deserializer(), r -> collectAccepted(r.value(), accepted));
             KafkaProducer<byte[], byte[]> producer = producer()) {
            List<Future<RecordMetadata>> pending = new ArrayList<>();
            List<Set<String>> pendingReasons = new ArrayList<>();
            for (int i = 0; i < badRecords; i++) {
                Damage damage = bad.pick();
                pending.add(producer.send(bad.make(damage, i)));
                pendingReasons.add(damage.reasons);
                if ((i + 1) % goodEvery == 0) {
                    goodIds.add(sendGood(producer, bad, i));
                }
                if (pending.size() >= 500) {
                    drain(pending, pendingReasons, expected);
                    alwaysRunning &= target.appRunning().getAsBoolean();
                }
            }
            drain(pending, pendingReasons, expected);
            Waits.until(() -> dlqReasons.keySet().containsAll(expected.keySet()) && accepted.containsAll(goodIds), timeout);
            alwaysRunning &= target.appRunning().getAsBoolean();
            undecodableEvents = events.badRecordSamples();
        }
        Report report = report(expected, dlqReasons, goodIds, accepted, alwaysRunning, Duration.ofNanos(System.nanoTime() - start));
        if (!undecodableEvents.isEmpty()) {
            // statesync wrote these itself: an answer that does not decode is a fault, whatever its input was.
            report.problems().add(0, "undecodable records on statesync.events: " + undecodableEvents);
        }
        return report;
    }

    private String sendGood(KafkaProducer<byte[], byte[]> producer, BadRecords bad, int i) {
        String key = "FuzzGood/default/g-" + i;
        String requestId = UUID.randomUUID().toString();
        byte[] value = target.serdes().desired().serializer().serialize(target.topics().desired(), bad.good(key, i));
        var record = new ProducerRecord<>(target.topics().desired(), key.getBytes(StandardCharsets.UTF_8), value);
        record.headers().add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(requestId));
        producer.send(record);
        return requestId;
    }

    private static void collectAccepted(ReconcileEvent e, Set<String> accepted) {
        if (e != null && e.getType() == EventType.Accepted && e.getRequestId() != null) {
            accepted.add(e.getRequestId());
        }
    }

    private static void drain(List<Future<RecordMetadata>> pending, List<Set<String>> reasons, Map<String, Set<String>> expected)
        throws Exception {
        for (int i = 0; i < pending.size(); i++) {
            RecordMetadata m = pending.get(i).get();
            expected.put(m.topic() + "/" + m.partition() + "/" + m.offset(), reasons.get(i));
        }
        pending.clear();
        reasons.clear();
    }

    private static String source(ConsumerRecord<String, byte[]> r) {
        return StatesyncHeaders.lastString(r.headers(), StatesyncHeaders.DLQ_SOURCE_TOPIC) + "/"
            + StatesyncHeaders.lastString(r.headers(), StatesyncHeaders.DLQ_SOURCE_PARTITION) + "/"
            + StatesyncHeaders.lastString(r.headers(), StatesyncHeaders.DLQ_SOURCE_OFFSET);
    }

    private static Report report(Map<String, Set<String>> expected, Map<String, String> dlqReasons, Set<String> goodIds,
                                 Set<String> accepted, boolean alwaysRunning, Duration elapsed) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> reasons = new TreeMap<>();
        int matched = 0;
        for (var e : expected.entrySet()) {
            String reason = dlqReasons.get(e.getKey());
            if (reason == null) {
                problems.add("not in the DLQ: " + e.getKey());
            } else if (!e.getValue().contains(reason)) {
                problems.add(e.getKey() + " has reason " + reason + ", expected one of " + e.getValue());
            } else {
                matched++;
                reasons.merge(reason, 1, Integer::sum);
            }
        }
        int goodAccepted = (int) goodIds.stream().filter(accepted::contains).count();
        return new Report(expected.size(), goodIds.size(), matched, goodAccepted, reasons,
            new ArrayList<>(problems.subList(0, Math.min(problems.size(), 20))), alwaysRunning, elapsed);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> props = new HashMap<>(target.clientProps());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
