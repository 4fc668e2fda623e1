package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.Value;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A TopologyTestDriver around {@link StatesyncTopology#build}, or around another topology on statesync's topics
 * ({@link #around}), with typed input and output topics and a mock registry.
 */
public final class TopologyFixture implements AutoCloseable {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    final AppConfig config;
    final TopicNames topics;
    final TopologySerdes serdes;
    final ReconcileMetrics metrics = new ReconcileMetrics(new SimpleMeterRegistry());
    final TopologyTestDriver driver;
    public final TestInputTopic<String, DesiredState> desired;
    public final TestInputTopic<String, ObservedState> observed;
    public final TestInputTopic<String, KindPolicy> kinds;
    public final TestInputTopic<byte[], byte[]> rawDesired;
    public final TestInputTopic<byte[], byte[]> rawObserved;
    public final TestOutputTopic<String, Resource> resources;
    public final TestOutputTopic<String, Correction> corrections;
    public final TestOutputTopic<String, ReconcileEvent> events;
    public final TestOutputTopic<byte[], byte[]> dlq;
    private Instant now = START;

    TopologyFixture(Path stateDir, Map<String, Object> overrides) {
        this(stateDir, overrides, (config, metrics) -> StatesyncTopology.build(config, metrics, Clock.systemUTC()));
    }

    /**
     * A driver around {@code topology}, built from the fixture's configuration, under statesync's Streams properties:
     * for a topology that must read and write what statesync's does, such as a benchmark's contender.
     */
    public static TopologyFixture around(Path stateDir, Function<AppConfig, Topology> topology) {
        return new TopologyFixture(stateDir, Map.of(), (config, metrics) -> topology.apply(config));
    }

    private TopologyFixture(Path stateDir, Map<String, Object> overrides,
                            BiFunction<AppConfig, ReconcileMetrics, Topology> topology) {
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.SCHEMA_REGISTRY_URL, "mock://ttd-" + UUID.randomUUID());
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(AppConfig.RESYNC_INTERVAL_MS, 100L);
        // Most tests expect the outputs of each input right after it; the coalescing tests turn this back on.
        props.put(AppConfig.RECONCILE_COALESCE_ENABLED, false);
        props.putAll(overrides);
        config = new AppConfig(props);
        topics = new TopicNames(config.topicPrefix());
        serdes = new TopologySerdes(config);
        Properties streamsProps = StatesyncTopology.streamsProperties(config, metrics);
        driver = new TopologyTestDriver(topology.apply(config, metrics), streamsProps, START);
        StringSerializer keys = new StringSerializer();
        desired = driver.createInputTopic(topics.desired(), keys, serdes.desired().serializer(), START, Duration.ZERO);
        observed = driver.createInputTopic(topics.observed(), keys, serdes.observed().serializer(), START, Duration.ZERO);
        kinds = driver.createInputTopic(topics.kinds(), keys, serdes.kindPolicy().serializer(), START, Duration.ZERO);
        rawDesired = driver.createInputTopic(topics.desired(), new ByteArraySerializer(), new ByteArraySerializer());
        rawObserved = driver.createInputTopic(topics.observed(), new ByteArraySerializer(), new ByteArraySerializer());
        StringDeserializer keyDe = new StringDeserializer();
        resources = driver.createOutputTopic(topics.resources(), keyDe, serdes.resource().deserializer());
        corrections = driver.createOutputTopic(topics.corrections(), keyDe, serdes.correction().deserializer());
        events = driver.createOutputTopic(topics.events(), keyDe, serdes.event().deserializer());
        dlq = driver.createOutputTopic(topics.dlq(), new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
            new org.apache.kafka.common.serialization.ByteArrayDeserializer());
    }

    Instant now() {
        return now;
    }

    /** Advances both stream time (for inputs) and wall-clock time (for the timers). */
    void advance(Duration d) {
        now = now.plus(d);
        driver.advanceWallClockTime(d);
    }

    public static Value spec(Map<String, ?> tree) {
        return Values.fromJava(tree);
    }

    public static DesiredState desiredState(String key, Map<String, ?> spec) {
        ResourceKey rk = ResourceKey.parse(key);
        return DesiredState.newBuilder().setKind(rk.kind()).setNamespace(rk.namespace()).setName(rk.name())
            .setSpec(spec(spec)).build();
    }

    void putDesired(DesiredState d) {
        desired.pipeInput(new TestRecord<>(key(d), d, now));
    }

    void putDesired(DesiredState d, String requestId) {
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.REQUEST_ID, requestId.getBytes(StandardCharsets.UTF_8));
        desired.pipeInput(new TestRecord<>(key(d), d, h, now));
    }

    /** A write a REST caller awaits, marked as the last one its writer awaits on the partition. */
    void putAwaitedDesired(DesiredState d, String requestId) {
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.REQUEST_ID, requestId.getBytes(StandardCharsets.UTF_8));
        h.add(StatesyncHeaders.COMMIT_REQUESTED, new byte[0]);
        desired.pipeInput(new TestRecord<>(key(d), d, h, now));
    }

    void deleteDesired(String key) {
        desired.pipeInput(new TestRecord<>(key, null, now));
    }

    /** A write (or with {@code d == null} a delete of {@code key}) with a request id and a writer's answer id. */
    void putAnswered(String key, DesiredState d, String requestId, String answerId) {
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.REQUEST_ID, requestId.getBytes(StandardCharsets.UTF_8));
        h.add(StatesyncHeaders.ANSWER_ID, answerId.getBytes(StandardCharsets.UTF_8));
        desired.pipeInput(new TestRecord<>(key, d, h, now));
    }

    /** An agent report of {@code state} (null = absent) at the current time. */
    void observe(String key, String uid, long generation, Map<String, ?> state, String ack) {
        ResourceKey rk = ResourceKey.parse(key);
        ObservedState o = ObservedState.newBuilder().setKind(rk.kind()).setNamespace(rk.namespace()).setName(rk.name())
            .setUid(uid).setObservedGeneration(generation).setState(state == null ? null : spec(state))
            .setObservedAt(now).setReporter("test").setAckCommandId(ack).build();
        observed.pipeInput(new TestRecord<>(key, o, now));
    }

    /** A delete that asks for {@code policy} (Background, Foreground, Orphan) for the resource's dependents. */
    void deleteDesired(String key, String policy) {
        RecordHeaders h = new RecordHeaders();
        h.add(StatesyncHeaders.PROPAGATION_POLICY, policy.getBytes(StandardCharsets.UTF_8));
        desired.pipeInput(new TestRecord<>(key, null, h, now));
    }

    void observeTombstone(String key) {
        observed.pipeInput(new TestRecord<>(key, null, now));
    }

    private static String key(DesiredState d) {
        return d.getKind() + "/" + d.getNamespace() + "/" + d.getName();
    }

    List<Resource> drainResources() {
        List<Resource> out = new ArrayList<>();
        while (!resources.isEmpty()) {
            out.add(resources.readValue());
        }
        return out;
    }

    List<Correction> drainCorrections() {
        return corrections.readValuesToList();
    }

    List<ReconcileEvent> drainEvents() {
        return events.readValuesToList();
    }

    @Override
    public void close() {
        driver.close();
    }
}
