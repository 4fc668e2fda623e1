package io.statesync.embedded.junit;

/** The broker and schema registry shared by all integration tests of one test JVM. */
public interface EmbeddedCluster {
    /** {@code bootstrap.servers} of the broker. */
    String bootstrapServers();

    /** The Confluent-compatible registry URL, {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    String registryUrl();

    /** Which broker was chosen: {@code "testcontainers"} or {@code "in-process"}. */
    String brokerKind();
}
