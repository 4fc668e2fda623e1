package io.statesync.agent;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.statesync.agent.internal.AgentMemory;
import io.statesync.agent.internal.CorrectionHandler;
import io.statesync.agent.internal.CorrectionLoop;
import io.statesync.agent.internal.KeyedExecutor;
import io.statesync.agent.internal.ObservedReporter;
import io.statesync.agent.internal.ObservedReports;
import io.statesync.agent.internal.ResyncTask;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link ResourceAgent} against statesync: consumes {@code statesync.corrections} for its kinds in a consumer
 * group, applies them with bounded concurrency (serialized per key), reports {@code ObservedState} to
 * {@code statesync.observed}, and commits a correction's offset only after its report is acknowledged. Every resync
 * interval it lists the world and reports it, so drift and deletions are seen.
 *
 * <p>Delivery is at least once: after a crash, corrections since the last commit are applied again, so
 * {@link ResourceAgent#apply} must be idempotent (a correction carries the whole {@code desiredSpec}).
 */
public final class StatesyncAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatesyncAgent.class);
    private static final Duration FIRST_POLL_BACKOFF = Duration.ofMillis(100);
    private static final Duration MAX_POLL_BACKOFF = Duration.ofSeconds(30);

    private final AgentConfig config;
    private final Consumer<String, Correction> consumer;
    private final Producer<String, ObservedState> producer;
    private final KeyedExecutor executor;
    private final CorrectionLoop loop;
    private final ResyncTask resync;
    private final ScheduledExecutorService scheduler;
    /** Runs the applies themselves: one that hangs past its timeout keeps a thread of this pool, not a key's slot. */
    private final ExecutorService applies;
    private volatile Thread pollThread;
    private volatile boolean closed;
    /** Polls that failed and were retried after a backoff, and the last failure, for the agent's own health checks. */
    private final java.util.concurrent.atomic.AtomicLong pollFailures = new java.util.concurrent.atomic.AtomicLong();
    private volatile String lastPollFailure;

    /** An agent whose clients use the given serdes; see {@link AgentSerdes} for the project's Avro serde. */
    public StatesyncAgent(ResourceAgent agent, AgentConfig config, Serde<Correction> corrections,
                          Serde<ObservedState> observed) {
        this(agent, config, new KafkaConsumer<>(consumerProps(config), new StringDeserializer(),
                corrections.deserializer()),
            new KafkaProducer<>(producerProps(config), new StringSerializer(), observed.serializer()),
            Clock.systemUTC());
    }

    /** For tests: clients (e.g. MockConsumer and MockProducer) and clock are the caller's. */
    public StatesyncAgent(ResourceAgent agent, AgentConfig config, Consumer<String, Correction> consumer,
                          Producer<String, ObservedState> producer, Clock clock) {
        this.config = config;
        this.consumer = consumer;
        this.producer = producer;
        Set<String> kinds = config.kindsOverride().isEmpty() ? agent.kinds() : config.kindsOverride();
        AgentMemory memory = new AgentMemory();
        ObservedReports reports = new ObservedReports(config.getString(AgentConfig.REPORTER), clock);
        ObservedReporter reporter = new ObservedReporter(producer, config.observedTopic(), Duration.ofSeconds(60));
        this.executor = new KeyedExecutor(config.getInt(AgentConfig.CONCURRENCY), "statesync-agent-apply");
        this.applies = Executors.newCachedThreadPool(daemon("statesync-agent-apply-call"));
        this.loop = new CorrectionLoop(consumer, config.correctionsTopic(), kinds, executor,
            new CorrectionHandler(agent, reports, reporter, memory, applies, config.applyTimeout()),
            config.getInt(AgentConfig.MAX_IN_FLIGHT), Duration.ofSeconds(30));
        this.resync = new ResyncTask(agent, kinds, reports, reporter, memory, clock);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("statesync-agent-resync"));
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Subscribes and starts the poll thread and the resync timer (the first resync runs at once). */
    public synchronized void start() {
        if (pollThread != null) {
            throw new IllegalStateException("already started");
        }
        pollThread = new Thread(this::run, "statesync-agent-poll");
        pollThread.start();
        long interval = config.resyncInterval().toMillis();
        if (interval > 0) {
            scheduler.scheduleWithFixedDelay(resync, 0, interval, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Polls until closed. A poll that throws is retried after a backoff that doubles with each failure in a row, up
     * to {@link #MAX_POLL_BACKOFF}, rather than ending the loop: an agent whose loop ended applied nothing more while
     * it looked alive. Its consumer keeps its positions, so nothing is skipped.
     */
    private void run() {
        long backoffMs = FIRST_POLL_BACKOFF.toMillis();
        try {
            loop.subscribe();
            while (loop.isRunning()) {
                try {
                    loop.pollOnce(config.pollTimeout());
                    backoffMs = FIRST_POLL_BACKOFF.toMillis();
                } catch (org.apache.kafka.common.errors.WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (!loop.isRunning()) {
                        break;
                    }
                    pollFailures.incrementAndGet();
                    lastPollFailure = e.toString();
                    LOG.error("Agent poll failed; polling again in {} ms", backoffMs, e);
                    pause(backoffMs);
                    backoffMs = Math.min(MAX_POLL_BACKOFF.toMillis(), backoffMs * 2);
                }
            }
        } catch (org.apache.kafka.common.errors.WakeupException e) {
            LOG.debug("Poll loop woken up to stop");
        } finally {
            loop.stop();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Polls that failed and were retried since the start. */
    public long pollFailures() {
        return pollFailures.get();
    }

    /** The last poll failure, or null when none failed. */
    public String lastPollFailure() {
        return lastPollFailure;
    }

    /** Lists and reports the world now, outside the timer; returns how many reports were sent. */
    public int resyncNow() throws Exception {
        return resync.resync();
    }

    /**
     * Observes and reports one resource outside the resync timer, e.g. when the agent learns that it changed.
     * Runs in order with the corrections of that key.
     */
    public CompletableFuture<Void> report(ResourceRef ref) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        executor.submit(ref.key(), () -> {
            try {
                resync.reportOne(ref);
                result.complete(null);
            } catch (Exception e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    public boolean isRunning() {
        return pollThread != null && loop.isRunning() && !closed;
    }

    /** Uncommitted corrections still being applied or reported. */
    public int inFlight() {
        return loop.inFlight();
    }

    /** Stops polling, lets running applies finish and report, commits them, then closes the clients. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.shutdownNow();
        loop.stop();
        Thread t = pollThread;
        if (t != null) {
            // No wakeup(): a pending wakeup would make the final commitSync below throw.
            join(t);
        }
        executor.close(Duration.ofSeconds(30));
        applies.shutdownNow();
        try {
            loop.commitFinished();
        } catch (RuntimeException e) {
            LOG.warn("Final commit failed; the next owner re-applies from the last commit", e);
        }
        consumer.close();
        producer.close(Duration.ofSeconds(10));
    }

    private static void join(Thread t) {
        try {
            t.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Map<String, Object> consumerProps(AgentConfig config) {
        Map<String, Object> props = new HashMap<>();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.getString(AgentConfig.BOOTSTRAP_SERVERS));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.getString(AgentConfig.GROUP_ID));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.putAll(config.consumerOverrides());
        return props;
    }

    static Map<String, Object> producerProps(AgentConfig config) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.getString(AgentConfig.BOOTSTRAP_SERVERS));
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.putAll(config.producerOverrides());
        return props;
    }
}
