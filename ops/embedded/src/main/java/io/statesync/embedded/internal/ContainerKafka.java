package io.statesync.embedded.internal;

import io.statesync.embedded.EmbeddedKafka;
import java.util.OptionalLong;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The {@code apache/kafka} image under Testcontainers, used by the JUnit extension when a Docker engine is reachable.
 * Unlike the other brokers, a restart starts a new, empty container: restart tests use the child-process broker.
 */
public final class ContainerKafka implements EmbeddedKafka {
    /** Overrides the image, e.g. {@code apache/kafka:4.1.0}; by default the image of the client library's version. */
    public static final String IMAGE_PROPERTY = "statesync.kafka.image";

    private final DockerImageName image;
    private KafkaContainer container;

    public ContainerKafka() {
        this.image = DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion()));
    }

    @Override
    public synchronized EmbeddedKafka start() {
        if (!isRunning()) {
            container = new KafkaContainer(image);
            container.start();
        }
        return this;
    }

    @Override
    public synchronized void stop() {
        if (container != null) {
            container.stop();
            container = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return container != null && container.isRunning();
    }

    @Override
    public synchronized String bootstrapServers() {
        if (container == null) {
            throw new IllegalStateException("The broker has not been started");
        }
        return container.getBootstrapServers();
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    @Override
    public void close() {
        stop();
    }
}
