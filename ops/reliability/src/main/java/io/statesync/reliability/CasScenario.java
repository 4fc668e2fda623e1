package io.statesync.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.topology.StatesyncHeaders;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * CAS linearizability: concurrent writers race conditional writes (expectedResourceVersion = the newest version
 * they have heard of) over a small key space through statesync.desired, and the answers on statesync.events are
 * checked by {@link CasHistory}.
 */
public final class CasScenario {

    /** The figures of one run. */
    public record Report(int writes, int accepted, int conflicts, int unanswered, List<String> violations, Duration elapsed) {

        public boolean passed() {
            return violations.isEmpty() && unanswered == 0;
        }
    }

    private static final int IN_FLIGHT_PER_WRITER = 8;
    private final ScenarioTarget target;
    private final CasHistory history = new CasHistory();
    private final Map<String, Long> newest = new ConcurrentHashMap<>();
    private final Map<Integer, Semaphore> inFlight = new ConcurrentHashMap<>();

    public CasScenario(ScenarioTarget target) {
        this.target = target;
    }

    public Report run(int writers, int keys, int writes, Duration timeout) throws Exception {
        long start = System.nanoTime();
        List<String> undecodable = new ArrayList<>();
        long undecodableCount;
        try (var events = new TopicTail<>(target.clientProps(), target.topics().events(), target.serdes().event().deserializer(),
                 r -> onAnswer(r.value()));
             var resources = new TopicTail<>(target.clientProps(), target.topics().resources(),
                 target.serdes().resource().deserializer(), r -> history.onResource(r.key(), (Resource) r.value()))) {
            seed(keys, timeout);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                inFlight.put(writer, new Semaphore(IN_FLIGHT_PER_WRITER));
                Thread t = new Thread(() -> write(writer, keys, writes / writers, timeout), "cas-writer-" + w);
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join(timeout.toMillis());
            }
            Waits.until(() -> history.answers.size() == history.sent.size() && history.resourcesCaughtUp(), timeout);
            undecodable.addAll(events.badRecordSamples());
            undecodable.addAll(resources.badRecordSamples());
            undecodableCount = events.badRecords() + resources.badRecords();
        }
        int unanswered = history.sent.size() - history.answers.size();
        List<String> violations = new ArrayList<>(history.violations());
        if (undecodableCount > 0) {
            // A skipped answer or Resource would leave the history incomplete: the checker's verdict would not hold.
            violations.add(undecodableCount + " undecodable records on statesync.events/resources: " + undecodable);
        }
        return new Report(history.sent.size() - keys, history.count(EventType.Accepted) - keys, history.count(EventType.Conflict),
            unanswered, violations, Duration.ofNanos(System.nanoTime() - start));
    }

    private void onAnswer(ReconcileEvent e) {
        history.onEvent(e);
        if (e == null || e.getRequestId() == null) {
            return;
        }
        CasHistory.Sent s = history.sent.get(e.getRequestId());
        if (s == null) {
            return;
        }
        if (e.getResourceVersion() != null && !e.getResourceVersion().isEmpty()) {
            newest.merge(s.key(), Long.parseLong(e.getResourceVersion()), Math::max);
        }
        Semaphore permits = inFlight.get(s.writer());
        if (permits != null) {
            permits.release();
        }
    }

    /** Unconditional creates, so that every key has a version before the race starts. */
    private void seed(int keys, Duration timeout) {
        try (var producer = producer()) {
            for (int k = 0; k < keys; k++) {
                send(producer, -1, key(k), null, Map.of("seed", (long) k));
            }
        }
        if (!Waits.until(() -> history.answers.size() == keys, timeout)) {
            throw new IllegalStateException("only " + history.answers.size() + " of " + keys + " seed writes were answered");
        }
    }

    private void write(int writer, int keys, int count, Duration timeout) {
        SplittableRandom random = new SplittableRandom(writer);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (var producer = producer()) {
            for (int n = 0; n < count && System.nanoTime() < deadline; n++) {
                // Bounded: an unanswered write must not stall the writer forever; it shows up as unanswered.
                inFlight.get(writer).tryAcquire(5, TimeUnit.SECONDS);
                String key = key(random.nextInt(keys));
                Long expected = newest.get(key);
                send(producer, writer, key, expected == null ? null : expected.toString(), Map.of("writer", (long) writer, "seq", (long) n));
            }
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void send(KafkaProducer<String, DesiredState> producer, int writer, String key, String expected, Map<String, Object> spec) {
        String requestId = UUID.randomUUID().toString();
        history.sent.put(requestId, new CasHistory.Sent(writer, key, expected, spec));
        DesiredState d = BadRecords.desired(key, spec);
        d.setExpectedResourceVersion(expected);
        var record = new ProducerRecord<>(target.topics().desired(), key, d);
        record.headers().add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(requestId));
        producer.send(record);
    }

    private KafkaProducer<String, DesiredState> producer() {
        Map<String, Object> props = new HashMap<>(target.clientProps());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        return new KafkaProducer<>(props, new StringSerializer(), target.serdes().desired().serializer());
    }

    private static String key(int k) {
        return "CasRace/default/key-" + k;
    }
}
