package io.statesync.embedded.internal;

import io.statesync.embedded.EmbeddedKafka;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;
import kafka.server.BrokerServer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A combined KRaft node inside this JVM, built with Kafka's own {@link KafkaClusterTestKit}. Only this class touches
 * the test kit, so code that never asks for an in-process broker runs without kafka-test-common-runtime.
 *
 * <p>{@link #stop()} shuts the broker side down and keeps the controller, so {@link #start()} brings the same data
 * back; the listener port may change across that restart.
 */
public final class InProcessKafka implements EmbeddedKafka {
    private static final Logger log = LoggerFactory.getLogger(InProcessKafka.class);

    private KafkaClusterTestKit cluster;
    private Path baseDir;
    private boolean brokerUp;

    @Override
    public synchronized EmbeddedKafka start() {
        long started = System.nanoTime();
        try {
            if (cluster == null) {
                baseDir = Files.createTempDirectory("statesync-kafka");
                cluster = newCluster(baseDir);
                cluster.format();
                cluster.startup();
            } else if (!brokerUp) {
                broker().startup();
            }
            cluster.waitForReadyBrokers();
            brokerUp = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while starting the in-process broker", e);
        } catch (Exception e) {
            throw new IllegalStateException("In-process broker failed to start", e);
        }
        log.info("In-process Kafka broker ready at {} in {} ms", bootstrapServers(), (System.nanoTime() - started) / 1_000_000);
        return this;
    }

    private static KafkaClusterTestKit newCluster(Path dir) throws Exception {
        MetadataVersion mv = MetadataVersion.latestProduction();
        var features = Feature.PRODUCTION_FEATURES.stream().collect(Collectors.toMap(
                Feature::featureName, f -> f.defaultLevel(mv), (a, b) -> a, TreeMap::new));
        TestKitNodes nodes = new TestKitNodes.Builder(BootstrapMetadata.fromVersions(mv, features, "statesync"))
                .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).setBaseDirectory(dir).build();
        return new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("unstable.api.versions.enable", "false")
                .setConfigProp("unstable.feature.versions.enable", "false")
                .build();
    }

    private BrokerServer broker() {
        return cluster.brokers().values().iterator().next();
    }

    @Override
    public synchronized void stop() {
        if (brokerUp) {
            broker().shutdown();
            broker().awaitShutdown();
            brokerUp = false;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return brokerUp;
    }

    @Override
    public synchronized String bootstrapServers() {
        if (cluster == null) {
            throw new IllegalStateException("The broker has not been started");
        }
        return cluster.bootstrapServers();
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    @Override
    public synchronized void close() {
        if (cluster == null) {
            return;
        }
        try {
            cluster.close();
        } catch (Exception e) {
            log.warn("In-process broker did not close cleanly", e);
        } finally {
            cluster = null;
            brokerUp = false;
            Directories.deleteRecursively(baseDir);
        }
    }
}
