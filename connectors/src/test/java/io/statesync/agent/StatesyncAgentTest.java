package io.statesync.agent;

import static io.statesync.agent.AgentTestSupport.correction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StatesyncAgentTest {

    private static final String TOPIC = "statesync.corrections";
    private static final TopicPartition TP = new TopicPartition(TOPIC, 0);
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final MockConsumer<String, Correction> consumer = new MockConsumer<>("earliest");
    private MockProducer<String, ObservedState> producer = new MockProducer<>(true, null, new StringSerializer(),
        (topic, value) -> new byte[0]);
    private final MapAgent world = new MapAgent(Set.of());
    private StatesyncAgent agent;
    private long nextOffset;

    @AfterEach
    void closeAgent() {
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void shouldReportCorrectionGenerationUidAndCommandIdAfterApply() {
        start(Map.of());
        Correction c = correction("WebApp/default/shop", Action.CREATE, 3, Map.of("replicas", 2));
        send(c);

        ObservedState report = awaitReport("WebApp/default/shop");
        assertThat(report.getObservedGeneration()).isEqualTo(3);
        assertThat(report.getUid()).isEqualTo(c.getUid());
        assertThat(report.getAckCommandId()).isEqualTo(c.getCommandId());
        assertThat(Values.toJava(report.getState())).isEqualTo(Map.of("replicas", 2L));
        assertThat(report.getConditions()).isEmpty();
        awaitCommitted(1);
    }

    @Test
    void shouldReportApplyFailedConditionAndKeepPreviousGenerationWhenApplyThrows() {
        start(Map.of());
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of("replicas", 2)));
        awaitCommitted(1);
        world.failNext.add("WebApp/default/shop");
        Correction update = correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 5));
        send(update);

        awaitCommitted(2);
        ObservedState report = reports("WebApp/default/shop").get(1);
        assertThat(report.getObservedGeneration()).isEqualTo(1);
        assertThat(report.getAckCommandId()).isEqualTo(update.getCommandId());
        Condition failed = report.getConditions().get(0);
        assertThat(failed.getType()).isEqualTo("ApplyFailed");
        assertThat(failed.getStatus()).isEqualTo("True");
        assertThat(failed.getMessage()).contains("boom");
        assertThat(Values.toJava(report.getState())).isEqualTo(Map.of("replicas", 2L));
        assertThat(report.getError().getTerminal()).as("any exception but TerminalApplyException is transient").isFalse();
        assertThat(report.getError().getMessage()).isEqualTo("boom");
    }

    @Test
    void shouldReportATerminalErrorWithItsCommandAndGenerationAndKeepItOnResync() throws Exception {
        start(Map.of());
        world.terminalNext.add("WebApp/default/shop");
        Correction create = correction("WebApp/default/shop", Action.CREATE, 4, Map.of("image", "nginx:::bad"));
        send(create);

        awaitCommitted(1);
        ObservedState report = awaitReport("WebApp/default/shop");
        assertThat(report.getError().getTerminal()).isTrue();
        assertThat(report.getError().getMessage()).isEqualTo("invalid image name");
        assertThat(report.getError().getCommandId()).isEqualTo(create.getCommandId());
        assertThat(report.getError().getGeneration()).isEqualTo(4);
        assertThat(report.getState()).as("nothing was created").isNull();

        agent.resyncNow();
        ObservedState resynced = last(reports("WebApp/default/shop"));
        assertThat(resynced).isNotSameAs(report);
        assertThat(resynced.getError()).as("a resync must not turn the terminal failure into a retry")
            .isEqualTo(report.getError());
    }

    @Test
    void shouldTimeOutAHungApplyAsTransientAndApplyTheKeysNextCorrectionWithoutIt() {
        start(Map.of(AgentConfig.APPLY_TIMEOUT_MS, 300L));
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of("replicas", 1)));
        awaitCommitted(1);
        world.hangNext.add("WebApp/default/shop");
        Correction hung = correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 2));
        Correction next = correction("WebApp/default/shop", Action.UPDATE, 3, Map.of("replicas", 3));
        send(hung);
        send(next);

        awaitCommitted(3);
        List<ObservedState> reports = reports("WebApp/default/shop");
        assertThat(reports).hasSize(3);
        assertThat(reports.get(1).getAckCommandId()).isEqualTo(hung.getCommandId());
        assertThat(reports.get(1).getError().getTerminal()).isFalse();
        assertThat(reports.get(1).getError().getMessage()).contains("did not finish within 300 ms");
        assertThat(reports.get(2).getAckCommandId()).isEqualTo(next.getCommandId());
        assertThat(reports.get(2).getError()).isNull();
        assertThat(Values.toJava(reports.get(2).getState())).isEqualTo(Map.of("replicas", 3L));

        world.release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> world.lateFinished);
        assertThat(reports("WebApp/default/shop")).as("the late outcome is not reported").hasSize(3);
    }

    @Test
    void shouldNotCommitUntilTheReportIsAcknowledged() throws Exception {
        producer = new MockProducer<>(false, null, new StringSerializer(), (topic, value) -> new byte[0]);
        start(Map.of());
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));

        await().atMost(Duration.ofSeconds(10)).until(() -> !producer.history().isEmpty());
        TimeUnit.MILLISECONDS.sleep(300);
        assertThat(committed()).isLessThan(1);

        producer.completeNext();
        awaitCommitted(1);
    }

    @Test
    void shouldRetryAReportWhoseSerializationFailedInsteadOfSkippingIt() {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        producer = new MockProducer<>(true, null, new StringSerializer(), (topic, value) -> {
            if (calls.incrementAndGet() == 1) {
                throw new org.apache.kafka.common.errors.SerializationException("registry unavailable");
            }
            return new byte[0];
        });
        start(Map.of());
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));

        awaitCommitted(1);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(reports("WebApp/default/shop")).hasSize(1);
    }

    @Test
    void shouldSkipAndCommitCorrectionsForKindsItDoesNotManage() {
        start(Map.of(AgentConfig.KINDS, "Database"));
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));

        awaitCommitted(1);
        assertThat(world.applied).isEmpty();
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void shouldApplyCorrectionsOfOneKeyInOrder() {
        start(Map.of(AgentConfig.CONCURRENCY, 4));
        for (int gen = 1; gen <= 50; gen++) {
            send(correction("WebApp/default/shop", gen == 1 ? Action.CREATE : Action.UPDATE, gen,
                Map.of("replicas", gen)));
            send(correction("WebApp/default/other-" + gen, Action.CREATE, 1, Map.of()));
        }

        awaitCommitted(100);
        List<Long> generations = world.applied.stream().filter(c -> c.getName().equals("shop"))
            .map(Correction::getGeneration).toList();
        assertThat(generations).isSorted().hasSize(50);
        assertThat(world.maxConcurrentPerKey).isEqualTo(1);
    }

    @Test
    void shouldReportDriftAndAbsentResourcesOnResync() throws Exception {
        start(Map.of());
        Correction create = correction("WebApp/default/shop", Action.CREATE, 1, Map.of("replicas", 2));
        send(create);
        send(correction("WebApp/default/gone", Action.CREATE, 1, Map.of("replicas", 1)));
        awaitCommitted(2);
        world.state.put("WebApp/default/shop", Map.of("replicas", 9L));
        world.state.remove("WebApp/default/gone");

        assertThat(agent.resyncNow()).isEqualTo(2);

        ObservedState drift = last(reports("WebApp/default/shop"));
        assertThat(Values.toJava(drift.getState())).isEqualTo(Map.of("replicas", 9L));
        assertThat(drift.getObservedGeneration()).isEqualTo(1);
        assertThat(drift.getAckCommandId()).as("the ack is not withdrawn").isEqualTo(create.getCommandId());
        ObservedState absent = last(reports("WebApp/default/gone"));
        assertThat(absent.getState()).isNull();
    }

    @Test
    void shouldKeepReportingAnApplyFailureOnResyncUntilAnApplySucceeds() throws Exception {
        start(Map.of());
        world.failNext.add("WebApp/default/shop");
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));
        awaitCommitted(1);

        agent.resyncNow();
        assertThat(last(reports("WebApp/default/shop")).getState()).isNull();
        assertThat(last(reports("WebApp/default/shop")).getConditions()).extracting(Condition::getType)
            .containsExactly("ApplyFailed");

        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of()));
        awaitCommitted(2);
        agent.resyncNow();
        assertThat(last(reports("WebApp/default/shop")).getConditions()).isEmpty();
    }

    @Test
    void shouldPollAgainAfterAPollFailsAndApplyWhatComesAfter() {
        start(Map.of());
        send(correction("WebApp/default/shop", Action.CREATE, 1, Map.of("replicas", 2)));
        awaitCommitted(1);
        consumer.schedulePollTask(() -> consumer.setPollException(new org.apache.kafka.common.KafkaException("broker hiccup")));
        send(correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 5)));

        awaitCommitted(2);
        assertThat(agent.pollFailures()).isEqualTo(1);
        assertThat(agent.lastPollFailure()).contains("broker hiccup");
        assertThat(agent.isRunning()).isTrue();
        assertThat(last(reports("WebApp/default/shop")).getObservedGeneration()).isEqualTo(2);
    }

    @Test
    void shouldReportOneResourceOnDemand() throws Exception {
        start(Map.of());
        world.state.put("WebApp/default/shop", Map.of("replicas", 4L));

        agent.report(ResourceRef.parse("WebApp/default/shop")).get(10, TimeUnit.SECONDS);

        assertThat(Values.toJava(last(reports("WebApp/default/shop")).getState())).isEqualTo(Map.of("replicas", 4L));
    }

    private void start(Map<String, Object> overrides) {
        Map<String, Object> props = new java.util.HashMap<>(Map.of(AgentConfig.RESYNC_INTERVAL_MS, 0L,
            AgentConfig.POLL_TIMEOUT_MS, 10L));
        props.putAll(overrides);
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(TP));
            consumer.updateBeginningOffsets(Map.of(TP, 0L));
        });
        agent = new StatesyncAgent(world, new AgentConfig(props), consumer, producer, CLOCK);
        agent.start();
    }

    private void send(Correction c) {
        String key = c.getKind() + "/" + c.getNamespace() + "/" + c.getName();
        long offset = nextOffset++;
        consumer.schedulePollTask(() -> consumer.addRecord(new ConsumerRecord<>(TOPIC, 0, offset, key, c)));
    }

    private long committed() {
        OffsetAndMetadata om = consumer.committed(Set.of(TP)).get(TP);
        return om == null ? -1 : om.offset();
    }

    private void awaitCommitted(long offset) {
        await().atMost(Duration.ofSeconds(10)).until(() -> committed() >= offset);
    }

    private ObservedState awaitReport(String key) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !reports(key).isEmpty());
        return reports(key).get(0);
    }

    private List<ObservedState> reports(String key) {
        return producer.history().stream().filter(r -> r.key().equals(key)).map(ProducerRecord::value).toList();
    }

    private static <T> T last(List<T> items) {
        return items.get(items.size() - 1);
    }

    /** A world held in a map; records the corrections it applied and how many ran at once per key. */
    static final class MapAgent implements ResourceAgent {
        final Map<String, Object> state = new ConcurrentHashMap<>();
        final List<Correction> applied = Collections.synchronizedList(new ArrayList<>());
        final Set<String> failNext = ConcurrentHashMap.newKeySet();
        final Set<String> terminalNext = ConcurrentHashMap.newKeySet();
        /** Keys whose next apply hangs, ignoring interrupts, until {@link #release}. */
        final Set<String> hangNext = ConcurrentHashMap.newKeySet();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean lateFinished;
        final Map<String, Integer> running = new ConcurrentHashMap<>();
        volatile int maxConcurrentPerKey;
        private final Set<String> kinds;

        MapAgent(Set<String> kinds) {
            this.kinds = kinds;
        }

        @Override
        public Set<String> kinds() {
            return kinds;
        }

        @Override
        public Observation observe(ResourceRef ref) {
            Object s = state.get(ref.key());
            return s == null ? Observation.absent(ref) : Observation.of(ref, s);
        }

        @Override
        public Collection<Observation> list() {
            List<Observation> out = new ArrayList<>();
            state.forEach((k, v) -> out.add(Observation.of(ResourceRef.parse(k), v)));
            return out;
        }

        @Override
        public void apply(Correction c) throws Exception {
            String key = c.getKind() + "/" + c.getNamespace() + "/" + c.getName();
            int now = running.merge(key, 1, Integer::sum);
            maxConcurrentPerKey = Math.max(maxConcurrentPerKey, now);
            try {
                new CountDownLatch(1).await(1, TimeUnit.MILLISECONDS);
                if (failNext.remove(key)) {
                    throw new IllegalStateException("boom");
                }
                if (terminalNext.remove(key)) {
                    throw new TerminalApplyException("invalid image name");
                }
                if (hangNext.remove(key)) {
                    hangUntilReleased();
                    lateFinished = true;
                    return;
                }
                applied.add(c);
                if (c.getAction() == Action.DELETE) {
                    state.remove(key);
                } else {
                    state.put(key, Values.toJava(c.getDesiredSpec()));
                }
            } finally {
                running.merge(key, -1, Integer::sum);
            }
        }

        private void hangUntilReleased() {
            while (release.getCount() > 0) {
                try {
                    release.await();
                } catch (InterruptedException ignored) {
                    // A hung apply that does not stop when interrupted is the case the timeout exists for.
                }
            }
        }
    }
}
