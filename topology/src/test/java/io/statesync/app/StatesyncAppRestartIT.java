package io.statesync.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** How an instance leaves, or keeps, its place in the consumer group when it stops, which decides how fast it restarts. */
@ExtendWith(EmbeddedClusterExtension.class)
class StatesyncAppRestartIT {

    @TempDir
    Path stateDir;

    @Test
    void shouldLeaveTheGroupOnCloseWithDynamicMembership(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "");
        startAndStop(config);

        assertThat(members(cluster, config)).isEmpty();
    }

    @Test
    void shouldStayInTheGroupOnCloseAndBeReplacedOnRestartWithStaticMembership(EmbeddedCluster cluster) throws Exception {
        AppConfig config = config(cluster, "instance-a");
        startAndStop(config);
        assertThat(instanceIds(cluster, config)).containsExactly("instance-a-1");

        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
            // The restarted thread took over the old member's place instead of joining next to it.
            assertThat(instanceIds(cluster, config)).containsExactly("instance-a-1");
        }
    }

    private static void startAndStop(AppConfig config) {
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            await().atMost(Duration.ofSeconds(60)).until(app::isRunning);
        }
    }

    private static List<String> instanceIds(EmbeddedCluster cluster, AppConfig config) throws Exception {
        return members(cluster, config).stream().map(m -> m.groupInstanceId().orElse("(dynamic)")).toList();
    }

    private static List<MemberDescription> members(EmbeddedCluster cluster, AppConfig config) throws Exception {
        String group = config.getString(AppConfig.APPLICATION_ID);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
            return List.copyOf(admin.describeConsumerGroups(List.of(group)).all().get().get(group).members());
        }
    }

    private AppConfig config(EmbeddedCluster cluster, String instanceId) {
        String name = "restart-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, cluster.bootstrapServers());
        props.put(AppConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        props.put(AppConfig.TOPIC_PREFIX, name + ".");
        props.put(AppConfig.APPLICATION_ID, name);
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(AppConfig.HTTP_PORT, 0);
        props.put(AppConfig.TOPIC_PARTITIONS, 2);
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        props.put(AppConfig.GROUP_INSTANCE_ID, instanceId);
        return new AppConfig(props);
    }
}
