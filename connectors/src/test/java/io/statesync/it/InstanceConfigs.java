package io.statesync.it;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.server.ServerConfig;

/** The configuration of a test's statesync instance on the shared embedded cluster. */
final class InstanceConfigs {

    private InstanceConfigs() {
    }

    /**
     * An instance under its own topic prefix and application id ({@code name} and a random suffix), on a free port,
     * with three partitions and one stream thread.
     */
    static AppConfig onCluster(EmbeddedCluster cluster, Path stateDir, String name) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put(AppConfig.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        p.put(AppConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        p.put(AppConfig.TOPIC_PREFIX, name + "-" + suffix + ".");
        p.put(AppConfig.APPLICATION_ID, "statesync-" + name + "-" + suffix);
        p.put(AppConfig.STATE_DIR, stateDir.toString());
        p.put(ServerConfig.HTTP_PORT, 0);
        p.put(ServerConfig.TOPIC_PARTITIONS, 3);
        p.put(AppConfig.NUM_STREAM_THREADS, 1);
        return new AppConfig(p);
    }
}
