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
 * write is admitted, and that the app keeps running throughout. {@link #runKinds} does the same for statesync.kinds,
 * whose records reach a global store rather than the DLQ.
 */
public final class FuzzScenario {

    /** The figures of one run. */
    public record Report(int badSent, int goodSent, int dlqMatched, int goodAccepted, Map<String, Integer> reasons,
                         List<String> problems, boolean appAlwaysRunning, Duration elapsed) {

        public boolean passed() {
            return problems.isEmpty() && dlqMatched == badSent && goodAccepted == goodSent && appAlwaysRunning;
        }
    }

    /**
     * The figures of a run on statesync.kinds: how many kinds got a damaged policy, how many writes of those kinds were
     * refused as their policy being unavailable (never admitted without it), and how many good writes were admitted.
     */
    public record KindsReport(int damagedKinds, int badKeys, int refusedRetryably, int goodSent, int goodAccepted,
                              List<String> problems, boolean appAlwaysRunning, Duration elapsed) {

        public boolean passed() {
            return problems.isEmpty() && refusedRetryably == damagedKinds && goodAccepted == goodSent && appAlwaysRunning;
        }
    }

    /** How long the global kinds store is given to read the damaged policies before writes of their kinds are sent. */
    private static final Duration KINDS_SETTLE = Duration.ofSeconds(3);

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

    /**
     * Sends {@code damagedKinds} damaged policies (one per kind) and as many records under keys that are not kinds to
     * statesync.kinds, then one write of each damaged kind and one good write per damaged kind; every write of a
     * damaged kind must be refused as PolicyUnavailable, every good write admitted, and the app must keep running.
     */
    public KindsReport runKinds(int damagedKinds, long seed, Duration timeout) throws Exception {
        long start = System.nanoTime();
        BadRecords bad = new BadRecords(target.topics(), target.serdes(), seed, 1);
        Map<String, String> answers = new ConcurrentHashMap<>();
        Map<String, String> damagedIds = new HashMap<>();
        Set<String> goodIds = new java.util.HashSet<>();
        boolean alwaysRunning;
        try (TopicTail<ReconcileEvent> events = new TopicTail<>(target.clientProps(), target.topics().events(),
                 target.serdes().event().deserializer(), r -> collectAnswer(r.value(), answers));
             KafkaProducer<byte[], byte[]> producer = producer()) {
            for (int i = 0; i < damagedKinds; i++) {
                producer.send(bad.damagedKind("FuzzKind" + i));
                producer.send(bad.badKindKey());
            }
            producer.flush();
            Thread.sleep(KINDS_SETTLE.toMillis());
            alwaysRunning = target.appRunning().getAsBoolean();
            for (int i = 0; i < damagedKinds; i++) {
                damagedIds.put(sendWrite(producer, bad, "FuzzKind" + i + "/default/k", i), "FuzzKind" + i);
                goodIds.add(sendGood(producer, bad, i));
            }
            producer.flush();
            Waits.until(() -> answers.keySet().containsAll(damagedIds.keySet()) && answers.keySet().containsAll(goodIds), timeout);
            alwaysRunning &= target.appRunning().getAsBoolean();
        }
        List<String> problems = new ArrayList<>();
        int refused = 0;
        for (var e : damagedIds.entrySet()) {
            String answer = answers.get(e.getKey());
            if ("Invalid/PolicyUnavailable".equals(answer)) {
                refused++;
            } else if (problems.size() < 20) {
                problems.add("a write of " + e.getValue() + " was answered " + answer + ", not refused as PolicyUnavailable");
            }
        }
        int goodAccepted = (int) goodIds.stream().filter(id -> String.valueOf(answers.get(id)).startsWith("Accepted/")).count();
        return new KindsReport(damagedKinds, damagedKinds, refused, goodIds.size(), goodAccepted, problems, alwaysRunning,
            Duration.ofNanos(System.nanoTime() - start));
    }

    private static void collectAnswer(ReconcileEvent e, Map<String, String> answers) {
        if (e != null && e.getRequestId() != null) {
            answers.putIfAbsent(e.getRequestId(), e.getType() + "/" + e.getReason());
        }
    }

    private String sendGood(KafkaProducer<byte[], byte[]> producer, BadRecords bad, int i) {
        return sendWrite(producer, bad, "FuzzGood/default/g-" + i, i);
    }

    private String sendWrite(KafkaProducer<byte[], byte[]> producer, BadRecords bad, String key, int i) {
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
