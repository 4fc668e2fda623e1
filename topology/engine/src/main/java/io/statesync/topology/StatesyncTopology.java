package io.statesync.topology;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import io.statesync.avro.Correction;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.gc.GarbageCollection;
import io.statesync.gc.OwnerKeyPartitioner;
import io.statesync.topology.internal.AdmissionProcessor;
import io.statesync.topology.internal.AdmissionCommits;
import io.statesync.topology.internal.DlqProcessingExceptionHandler;
import io.statesync.topology.internal.DlqProductionExceptionHandler;
import io.statesync.topology.internal.FailedInputs;
import io.statesync.topology.internal.KindPolicyUpdater;
import io.statesync.topology.internal.ObservationProcessor;
import io.statesync.topology.internal.QuarantiningProcessor;
import io.statesync.topology.internal.TopologyContext;
import io.statesync.topology.internal.WireBytesSerializer;
import io.statesync.topology.store.ReconcileStateStore;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

import static io.statesync.topology.TopologyNames.*;

/**
 * Builds the statesync topology. {@code main} and the tests both call {@link #build(AppConfig, ReconcileMetrics, Clock)},
 * so what is tested is what runs.
 *
 * <p>The processors sit on the Processor API: admission, observation and the timers all read and write one
 * per-key {@link ReconcileState}, which the DSL would materialise twice (once per joined table).
 */
public final class StatesyncTopology {

    /** The state store's name, for interactive queries and tools; {@link TopologyNames} holds every name. */
    public static final String STATE_STORE = TopologyNames.STATE_STORE;
    /** See {@link TopologyNames#TIMER_STORE}. */
    public static final String TIMER_STORE = TopologyNames.TIMER_STORE;
    /** See {@link TopologyNames#REVISION_STORE}. */
    public static final String REVISION_STORE = TopologyNames.REVISION_STORE;
    /** See {@link TopologyNames#KINDS_STORE}. */
    public static final String KINDS_STORE = TopologyNames.KINDS_STORE;

    /**
     * The batch size of the stream threads' producers under exactly-once: sixteen times the client's, so that a commit
     * interval's records of one partition mostly fit one batch, and a quarter of the broker's default message size limit.
     */
    static final int TRANSACTIONAL_BATCH_BYTES = 256 * 1024;
    /**
     * What a stream thread's main consumer waits to gather under exactly-once, and for how long at most. The wait is
     * what an isolated write sits at the broker before its stream thread sees it, and a REST caller awaits that
     * write, so it is short; the restwrites and latency suites of docs/benchmarks.md weigh it against CPU per write.
     */
    static final int TRANSACTIONAL_FETCH_MIN_BYTES = 64 * 1024;
    static final long TRANSACTIONAL_FETCH_MAX_WAIT_MS = 5;

    /**
     * How the stream threads' producers compress what they write: the state changelog and the Resources carry the
     * same field names, conditions and spec shapes record after record, so a batch shrinks several times. The broker
     * then copies, checks and stores a fraction of the bytes, which costs less CPU than lz4 costs the stream thread;
     * the throughput suite of docs/benchmarks.md measures both sides on one machine.
     */
    static final String OUTPUT_COMPRESSION = "lz4";

    private StatesyncTopology() {
    }

    public static Topology build(AppConfig config, ReconcileMetrics metrics, Clock clock) {
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        TopologyContext ctx = new TopologyContext(config, topics, serdes, metrics, clock);
        Topology t = new Topology();
        Serde<byte[]> bytes = Serdes.ByteArray();
        t.addSource(DESIRED_SOURCE, bytes.deserializer(), bytes.deserializer(), topics.desired());
        t.addSource(OBSERVED_SOURCE, bytes.deserializer(), bytes.deserializer(), topics.observed());
        AdmissionCommits admissionCommits = new AdmissionCommits(config.getLong(AppConfig.ADMISSION_COMMIT_INTERVAL_MS),
            config.getLong(AppConfig.ADMISSION_COMMIT_MAX_RATE));
        // Both take client and agent input: an Error while processing one record quarantines that record.
        t.addProcessor(ADMISSION, () -> QuarantiningProcessor.wrap(new AdmissionProcessor(ctx, admissionCommits)), DESIRED_SOURCE);
        t.addProcessor(OBSERVATION, () -> QuarantiningProcessor.wrap(new ObservationProcessor(ctx, admissionCommits)), OBSERVED_SOURCE);
        t.addSource(DEPENDENTS_SOURCE, Serdes.String().deserializer(), bytes.deserializer(), topics.dependents());
        t.addSource(COLLECT_SOURCE, Serdes.String().deserializer(), bytes.deserializer(), topics.collect());
        t.addProcessor(DEPENDENTS_INDEX, () -> GarbageCollection.dependentsIndexProcessor(ctx.collectedTasks(),
            metrics.collector()), DEPENDENTS_SOURCE);
        t.addProcessor(COLLECT, () -> GarbageCollection.collectProcessor(ctx.collectedTasks(), metrics.collector()),
            COLLECT_SOURCE);
        String[] parents = {ADMISSION, OBSERVATION, DEPENDENTS_INDEX, COLLECT};
        t.addStateStore(ReconcileStateStore.builder(STATE_STORE, serdes, config), parents);
        // Caching coalesces the writes of one commit interval: the timer index and the per-task revision counter each
        // send one changelog record per commit instead of one per event.
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TIMER_STORE), Serdes.String(), bytes)
            .withCachingEnabled(), parents);
        // The revision counter (one key per task) and the kind policies (a few per kind) are too small for RocksDB:
        // in memory they restore from their compacted topics in a fetch or two, and a restart opens no RocksDB
        // instance for them, neither per task (each is opened twice, as Streams starts and at task assignment) nor for
        // the global store's bootstrap, which start() waits for.
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(REVISION_STORE), Serdes.String(), Serdes.Long())
            .withCachingEnabled(), parents);
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DEPENDENTS_STORE), Serdes.String(), bytes),
            parents);
        t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(KINDS_STORE), Serdes.String(), bytes)
                .withLoggingDisabled(),
            KINDS_SOURCE, Serdes.String().deserializer(), bytes.deserializer(), topics.kinds(), KINDS_UPDATER,
            () -> new KindPolicyUpdater(ctx));
        // An output over the topics' limit fails as it is serialized, before the producer sees it: see OutputLimits.bounded.
        t.addSink(RESOURCES_SINK, topics.resources(), Serdes.String().serializer(),
            OutputLimits.bounded(new WireBytesSerializer<>(serdes.resource().serializer(), Resource.class), config), parents);
        t.addSink(CORRECTIONS_SINK, topics.corrections(), Serdes.String().serializer(),
            OutputLimits.bounded(serdes.correction().serializer(), config), parents);
        t.addSink(EVENTS_SINK, topics.events(), Serdes.String().serializer(),
            OutputLimits.bounded(serdes.event().serializer(), config), parents);
        t.addSink(DLQ_SINK, topics.dlq(), bytes.serializer(), bytes.serializer(), parents);
        // The definitions of kinds that CustomResourceDefinitions define, which every task's admission reads from the
        // global kinds store: written by the task that stores the definition, so that its versions arrive in order.
        t.addSink(TopologyNames.DEFINITIONS_SINK, topics.kinds(), Serdes.String().serializer(),
            serdes.kindPolicy().serializer(), parents);
        t.addSink(DEPENDENTS_SINK, topics.dependents(), Serdes.String().serializer(), bytes.serializer(),
            new OwnerKeyPartitioner(), parents);
        t.addSink(COLLECT_SINK, topics.collect(), Serdes.String().serializer(), bytes.serializer(), parents);
        return t;
    }

    /**
     * Larger batches in and out under exactly-once, where a record's output becomes visible to {@code read_committed}
     * readers (agents, watchers, the REST view) only when its transaction commits, on average half a commit interval
     * after it was processed. Small batches buy nothing there and cost CPU on the stream thread and the broker (the
     * latency suite of docs/benchmarks.md measures both sides):
     * <ul>
     *   <li>The producers: Kafka Streams lets them linger 100 ms, but the client's 16 KiB batches fill long before, and
     *       the commit flushes the producer anyway. Larger batches cost less CPU per write and shorten the tail
     *       latency.</li>
     *   <li>The main consumer: with {@code fetch.min.bytes} 1 a stream thread fetches and polls for every few records.
     *       Waiting a little (never longer than the commit interval) for a larger fetch costs less CPU per write, for a
     *       somewhat higher median latency at moderate rates.</li>
     * </ul>
     * At-least-once keeps Kafka Streams' defaults, since there every wait adds to the latency. An operator's setting,
     * bare or for that client, wins.
     */
    private static void batchUnderExactlyOnce(Properties p) {
        if (StreamsConfig.AT_LEAST_ONCE.equals(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))) {
            return;
        }
        ClientDefaults.putUnlessSet(p, ProducerConfig.BATCH_SIZE_CONFIG, TRANSACTIONAL_BATCH_BYTES, StreamsConfig.PRODUCER_PREFIX);
        // A string when the operator set it through streams.commit.interval.ms.
        long commitInterval = Long.parseLong(String.valueOf(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)));
        ClientDefaults.putUnlessSet(p, ConsumerConfig.FETCH_MIN_BYTES_CONFIG, TRANSACTIONAL_FETCH_MIN_BYTES,
            StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX);
        ClientDefaults.putUnlessSet(p, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) Math.min(commitInterval, TRANSACTIONAL_FETCH_MAX_WAIT_MS),
            StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX);
    }

    /**
     * The Kafka Streams properties for this config: our defaults, then pass-through {@code kafka.*} and {@code streams.*},
     * then the exactly-once batching defaults, which yield to anything passed through.
     */
    public static Properties streamsProperties(AppConfig config, ReconcileMetrics metrics) {
        return streamsProperties(config, metrics, new TaskFailures(Clock.systemUTC()));
    }

    /** As {@link #streamsProperties(AppConfig, ReconcileMetrics)}, with the instance's record of failing tasks. */
    public static Properties streamsProperties(AppConfig config, ReconcileMetrics metrics, TaskFailures failures) {
        Map<String, Object> p = new HashMap<>();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.getString(AppConfig.APPLICATION_ID));
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.getString(AppConfig.PROCESSING_GUARANTEE));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.getInt(AppConfig.NUM_STREAM_THREADS));
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.getLong(AppConfig.COMMIT_INTERVAL_MS));
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.getString(AppConfig.STATE_DIR));
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.getInt(AppConfig.NUM_STANDBY_REPLICAS));
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DlqProcessingExceptionHandler.class);
        // A record the producer cannot send (too large, not serializable) goes to the DLQ and the task goes on,
        // instead of failing the task's transaction and the same input again after every restart.
        p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DlqProductionExceptionHandler.class);
        // The largest record a stream thread may produce, for its producer and for the changelogs Streams creates;
        // the output topics get the same limit from TopicManager.
        int maxRecord = OutputLimits.maxRecordBytes(config);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), maxRecord);
        p.put(StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG), Integer.toString(maxRecord));
        // The kinds store's processor too (Kafka Streams 5.0's default): an unexpected failure there is logged and
        // skipped instead of ending the global thread; otherwise Streams warns at every start that it is off. Each
        // stream thread's partition assignor builds its own StreamsConfig from the main consumer's settings, and
        // warns again unless the key is there too.
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        p.put(StreamsConfig.mainConsumerPrefix(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG), true);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) config.getShort(AppConfig.TOPIC_REPLICATION_FACTOR));
        // Not under "topic.": Streams would apply that to its internal topics' configs.
        p.put(DLQ_TOPIC_CONFIG, new TopicNames(config.topicPrefix()).dlq());
        p.put(ReconcileMetrics.CONFIG_KEY, metrics);
        p.put(TaskFailures.CONFIG_KEY, failures);
        p.put(FailedInputs.CONFIG_KEY, new FailedInputs(config.getInt(AppConfig.QUARANTINE_MAX_ATTEMPTS), Clock.systemUTC()));
        p.putAll(config.clientProps(AppConfig.STREAMS_PREFIX));
        config.originalsWithPrefix(AppConfig.PRODUCER_PREFIX).forEach((k, v) -> p.put(StreamsConfig.producerPrefix(k), v));
        config.originalsWithPrefix(AppConfig.CONSUMER_PREFIX).forEach((k, v) -> p.put(StreamsConfig.consumerPrefix(k), v));
        config.originalsWithPrefix(AppConfig.ADMIN_PREFIX).forEach((k, v) -> p.put(StreamsConfig.adminClientPrefix(k), v));
        Properties props = new Properties();
        props.putAll(p);
        batchUnderExactlyOnce(props);
        ClientDefaults.putUnlessSet(props, ProducerConfig.COMPRESSION_TYPE_CONFIG, OUTPUT_COMPRESSION, StreamsConfig.PRODUCER_PREFIX);
        // max.task.idle.ms stays at Kafka Streams' default, which waits for records already on the broker: a task that
        // ran its buffered desired writes ahead of observations still to be fetched would reconcile keys against
        // reports older than their writes, and each of those costs a correction and its outputs.
        long commitGap = config.getLong(AppConfig.ADMISSION_COMMIT_INTERVAL_MS);
        if (commitGap > 0 && !props.containsKey(StreamsConfig.POLL_MS_CONFIG)) {
            // A commit that admission asks for while the stream thread blocks in poll waits until the poll ends.
            props.put(StreamsConfig.POLL_MS_CONFIG, Math.min(100L, commitGap));
        }
        return props;
    }
}
