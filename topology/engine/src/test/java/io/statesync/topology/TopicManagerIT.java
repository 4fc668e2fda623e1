package io.statesync.topology;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(EmbeddedClusterExtension.class)
class TopicManagerIT {

    private static Admin admin(EmbeddedCluster cluster) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    @Test
    void shouldCreateAllTopicsWithTheirCleanupPolicyAndPartitionCount(EmbeddedCluster cluster) throws Exception {
        TopicNames topics = uniqueTopics();
        try (Admin admin = admin(cluster)) {
            new TopicManager(admin, topics, 3, (short) -1).ensureTopics(true);
            var described = admin.describeTopics(topics.all()).allTopicNames().get();
            assertThat(described.values()).filteredOn(d -> !d.name().equals(topics.kinds()))
                .hasSize(topics.all().size() - 1).allSatisfy(d -> assertThat(d.partitions()).hasSize(3));
            assertThat(described.get(topics.kinds()).partitions()).as("a global table's topic").hasSize(1);
            ConfigResource desired = new ConfigResource(ConfigResource.Type.TOPIC, topics.desired());
            ConfigResource corrections = new ConfigResource(ConfigResource.Type.TOPIC, topics.corrections());
            var configs = admin.describeConfigs(List.of(desired, corrections)).all().get();
            assertThat(configs.get(desired).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("compact");
            assertThat(configs.get(corrections).get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo("delete");
            new TopicManager(admin, topics, 3, (short) -1).ensureTopics(true);
        }
    }

    @Test
    void shouldFailFastWhenAnExistingTopicHasAnotherPartitionCount(EmbeddedCluster cluster) throws Exception {
        TopicNames topics = uniqueTopics();
        try (Admin admin = admin(cluster)) {
            createTopic(admin, topics.observed(), 2, "compact");
            assertThatThrownBy(() -> new TopicManager(admin, topics, 3, (short) -1).ensureTopics(true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(topics.observed() + " has 2 partitions, expected 3");
        }
    }

    @Test
    void shouldAcceptAKindsTopicWithAnyPartitionCount(EmbeddedCluster cluster) throws Exception {
        TopicNames topics = uniqueTopics();
        try (Admin admin = admin(cluster)) {
            createTopic(admin, topics.kinds(), 3, "compact");

            new TopicManager(admin, topics, 2, (short) -1).ensureTopics(true);

            assertThat(admin.describeTopics(List.of(topics.kinds())).allTopicNames().get().get(topics.kinds())
                .partitions()).hasSize(3);
        }
    }

    @Test
    void shouldFailFastWhenACompactedTopicUsesDelete(EmbeddedCluster cluster) throws Exception {
        TopicNames topics = uniqueTopics();
        try (Admin admin = admin(cluster)) {
            createTopic(admin, topics.resources(), 3, "delete");
            assertThatThrownBy(() -> new TopicManager(admin, topics, 3, (short) -1).ensureTopics(true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(topics.resources() + " has cleanup.policy=delete, expected compact");
        }
    }

    @Test
    void shouldRefuseToStartWhenTopicsAreMissingAndCreationIsOff(EmbeddedCluster cluster) {
        TopicNames topics = uniqueTopics();
        try (Admin admin = admin(cluster)) {
            assertThatThrownBy(() -> new TopicManager(admin, topics, 3, (short) -1).ensureTopics(false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("topic.create=false");
        }
    }

    private static TopicNames uniqueTopics() {
        return new TopicNames("tm-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    }

    private static void createTopic(Admin admin, String name, int partitions, String cleanupPolicy) throws Exception {
        admin.createTopics(List.of(new NewTopic(name, Optional.of(partitions), Optional.empty())
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, cleanupPolicy)))).all().get();
    }
}
