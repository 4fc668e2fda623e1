package io.statesync.kubernetes;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.TopicManager;
import io.statesync.topology.TopicNames;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Strimzi resources of each overlay: a KafkaTopic for every topic as TopicManager would create it from the
 * instance's configuration, and KafkaUsers with the ACLs of docs/security.md, on the cluster the instance connects to.
 */
class StrimziResourcesTest {

    /** Settings docs/operations.md recommends beside TopicManager's ("Topic configuration for production"). */
    private static final Set<String> RECOMMENDED_COMPACTED = Set.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
        TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, TopicConfig.MAX_COMPACTION_LAG_MS_CONFIG, TopicConfig.DELETE_RETENTION_MS_CONFIG);
    private static final Set<String> RECOMMENDED_DELETING = Set.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
        TopicConfig.RETENTION_MS_CONFIG);


    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldDeclareEveryTopicAsTopicManagerCreatesIt(RenderedOverlay overlay) {
        AppConfig config = InstanceEnvironment.of(overlay).config();
        assertThat(config.getBoolean(ServerConfig.TOPIC_CREATE)).as("the KafkaTopics own the topics").isFalse();
        TopicNames names = new TopicNames(config.topicPrefix());
        List<NewTopic> expected = new TopicManager(null, names, config.getInt(ServerConfig.TOPIC_PARTITIONS),
            config.getShort(AppConfig.TOPIC_REPLICATION_FACTOR)).withMaxMessageBytes(OutputLimits.maxRecordBytes(config)).newTopics();
        Map<String, JsonNode> declared = overlay.all("KafkaTopic").stream()
            .collect(Collectors.toMap(t -> t.path("spec").path("topicName").asText(), Function.identity()));
        assertThat(declared.keySet()).as("%s: a KafkaTopic per topic", overlay)
            .containsExactlyInAnyOrderElementsOf(expected.stream().map(NewTopic::name).toList());
        for (NewTopic topic : expected) {
            JsonNode spec = declared.get(topic.name()).path("spec");
            assertThat(spec.path("partitions").asInt()).as("%s partitions", topic.name()).isEqualTo(topic.numPartitions());
            assertThat(spec.path("replicas").asInt()).as("%s replicas", topic.name()).isEqualTo(topic.replicationFactor());
            Map<String, String> configs = configs(spec.path("config"));
            topic.configs().forEach((key, value) -> assertThat(configs).as("%s config", topic.name()).containsEntry(key, value));
            boolean compacted = names.compacted().contains(topic.name());
            Set<String> extra = new TreeSet<>(configs.keySet());
            extra.removeAll(topic.configs().keySet());
            assertThat(extra).as("%s: only the recommended settings beside TopicManager's", topic.name())
                .isSubsetOf(compacted ? RECOMMENDED_COMPACTED : RECOMMENDED_DELETING);
            int minIsr = Integer.parseInt(configs.getOrDefault(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, "1"));
            assertThat(minIsr).as("%s: acks=all writes survive one broker down", topic.name())
                .isLessThanOrEqualTo(Math.max(1, topic.replicationFactor() - 1));
        }
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldGrantTheAclsOfSecurityMd(RenderedOverlay overlay) {
        AppConfig config = InstanceEnvironment.of(overlay).config();
        String prefix = config.topicPrefix();
        String appId = config.getString(AppConfig.APPLICATION_ID);
        TopicNames names = new TopicNames(prefix);
        String topicOps = config.getBoolean(ServerConfig.TOPIC_CREATE) ? "Create,Describe,DescribeConfigs,Read,Write"
            : "Describe,DescribeConfigs,Read,Write";
        assertThat(acls(overlay, "statesync")).as("%s: the statesync principal", overlay).isEqualTo(Map.of(
            "topic " + prefix + " prefix", topicOps,
            "topic " + appId + "- prefix", "All",
            "group " + appId + " literal", "Describe,Read",
            "transactionalId " + appId + "- prefix", "Describe,Write"));
        assertThat(acls(overlay, "statesync-agent")).as("%s: an agent", overlay).isEqualTo(Map.of(
            "topic " + names.corrections() + " literal", "Describe,Read",
            "topic " + names.observed() + " literal", "Describe,Write",
            "group statesync-agent literal", "Read"));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldPlaceTheStrimziResourcesOnTheClusterTheInstanceConnectsTo(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        String bootstrap = instance.config().getList(AppConfig.BOOTSTRAP_SERVERS).get(0);
        for (String kind : List.of("KafkaTopic", "KafkaUser")) {
            for (JsonNode resource : overlay.all(kind)) {
                String cluster = resource.path("metadata").path("labels").path("strimzi.io/cluster").asText();
                assertThat(bootstrap).as("%s %s", kind, resource.path("metadata").path("name").asText())
                    .startsWith(cluster + "-kafka-bootstrap:");
            }
        }
        // The Secrets Strimzi writes: the user's SCRAM JAAS line and the cluster CA's trust store.
        assertThat(instance.env().get("STATESYNC_KAFKA_SASL_JAAS_CONFIG")).isEqualTo("secret:statesync/sasl.jaas.config");
        String cluster = bootstrap.substring(0, bootstrap.indexOf("-kafka-bootstrap:"));
        assertThat(instance.env().get("STATESYNC_KAFKA_SSL_TRUSTSTORE_PASSWORD"))
            .isEqualTo("secret:" + cluster + "-cluster-ca-cert/ca.password");
        assertThat(overlay.named("KafkaUser", "statesync").path("spec").path("authentication").path("type").asText())
            .isEqualTo(instance.config().originals().get("kafka.sasl.mechanism").toString().toLowerCase());
    }

    /** A KafkaUser's ACLs as "type name patternType" to its sorted operations. */
    private static Map<String, String> acls(RenderedOverlay overlay, String user) {
        JsonNode authorization = overlay.named("KafkaUser", user).path("spec").path("authorization");
        assertThat(authorization.path("type").asText()).isEqualTo("simple");
        Map<String, String> out = new TreeMap<>();
        for (JsonNode acl : authorization.path("acls")) {
            JsonNode r = acl.path("resource");
            Set<String> ops = new TreeSet<>();
            acl.path("operations").forEach(op -> ops.add(op.asText()));
            assertThat(out.put(r.path("type").asText() + " " + r.path("name").asText() + " " + r.path("patternType").asText(),
                String.join(",", ops))).as("one entry per resource").isNull();
        }
        return out;
    }

    private static Map<String, String> configs(JsonNode config) {
        Map<String, String> out = new TreeMap<>();
        config.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
