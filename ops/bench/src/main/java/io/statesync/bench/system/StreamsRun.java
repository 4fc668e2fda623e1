package io.statesync.bench.system;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.topology.ReconcileMetrics;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;

/** A Kafka Streams instance whose clock starts when it first reaches RUNNING, i.e. after the group has formed. */
final class StreamsRun implements AutoCloseable {

    private final KafkaStreams streams;
    private final AtomicLong runningAt = new AtomicLong();
    private final CountDownLatch running = new CountDownLatch(1);

    StreamsRun(Topology topology, Properties props) {
        this.streams = new KafkaStreams(topology, props);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING && runningAt.compareAndSet(0, System.nanoTime())) {
                running.countDown();
            }
        });
    }

    /**
     * statesync's topology under its own Streams properties, both counting into one {@link ReconcileMetrics} whose
     * registry nothing exports: the suites measure from outside the application.
     */
    static StreamsRun statesync(AppConfig config) {
        ReconcileMetrics metrics = unexportedMetrics();
        return new StreamsRun(StatesyncTopology.build(config, metrics, Clock.systemUTC()),
            StatesyncTopology.streamsProperties(config, metrics));
    }

    /** Metrics for a statesync topology or Streams config that a suite builds itself. */
    static ReconcileMetrics unexportedMetrics() {
        return new ReconcileMetrics(new SimpleMeterRegistry());
    }

    StreamsRun start() {
        streams.start();
        return this;
    }

    /** nanoTime of the first RUNNING. */
    long awaitRunning(Duration timeout) throws InterruptedException {
        if (!running.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("streams not RUNNING after " + timeout + ": " + streams.state());
        }
        return runningAt.get();
    }

    KafkaStreams streams() {
        return streams;
    }

    static Properties withIdentity(Properties base, String applicationId, Path stateDir) {
        Properties p = new Properties();
        p.putAll(base);
        p.put("application.id", applicationId);
        p.put("state.dir", stateDir.toString());
        return p;
    }

    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
            .withTimeout(Duration.ofSeconds(30)));
    }
}
