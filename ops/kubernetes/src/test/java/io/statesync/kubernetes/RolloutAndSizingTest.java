package io.statesync.kubernetes;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Quantity;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How each overlay's instances roll, fail over, size their memory, reach the network and find their Secrets:
 * one pod down at a time, standbys on other instances, memory from the memory suite, a network policy that lets
 * the instance reach what its configuration names.
 */
class RolloutAndSizingTest {

    private static final long MIB = 1024 * 1024;
    private static final Pattern HEAP_PERCENT = Pattern.compile("-XX:MaxRAMPercentage=(\\d+(?:\\.\\d+)?)");

    private static MemorySuiteFigures memorySuite;

    @BeforeAll
    static void readMemorySuite() throws IOException {
        memorySuite = MemorySuiteFigures.read(RenderedOverlay.repositoryRoot().resolve("docs/benchmarks.md"));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldRollOneReadyInstanceAtATimeWithStandbysElsewhere(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        JsonNode spec = instance.statefulSet().path("spec");
        assertThat(spec.path("podManagementPolicy").asText()).isEqualTo("OrderedReady");
        assertThat(spec.path("updateStrategy").path("type").asText()).isEqualTo("RollingUpdate");
        assertThat(spec.path("updateStrategy").path("rollingUpdate").path("maxUnavailable").asInt(1)).isEqualTo(1);
        assertThat(instance.container().path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/readyz");
        JsonNode budget = overlay.only("PodDisruptionBudget").path("spec");
        assertThat(budget.path("maxUnavailable").asInt()).as("%s: node drains take one instance at a time", overlay).isEqualTo(1);
        assertThat(InstanceWiringTest.selects(budget.path("selector").path("matchLabels"), InstanceWiringTest.podLabels(instance)))
            .as("the budget covers the pods").isTrue();
        int replicas = spec.path("replicas").asInt();
        int standbys = instance.config().getInt(AppConfig.NUM_STANDBY_REPLICAS);
        assertThat(standbys).as("%s: a standby needs another instance to live on", overlay).isLessThan(replicas);
        if (replicas > 1) {
            assertThat(standbys).as("%s: several instances fail over to warm standbys", overlay).isPositive();
        }
        assertThat(instance.config().getInt(ServerConfig.TOPIC_PARTITIONS))
            .as("%s: partitions bound the stream threads that work", overlay)
            .isGreaterThanOrEqualTo(replicas * instance.config().getInt(AppConfig.NUM_STREAM_THREADS));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldSizeMemoryAndStartUpFromTheMemorySuite(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        JsonNode resources = instance.container().path("resources");
        long limit = bytes(resources.path("limits").path("memory"));
        assertThat(bytes(resources.path("requests").path("memory"))).as("%s: the page cache of the view's snapshot counts"
            + " against the limit, so the request is the limit", overlay).isEqualTo(limit);
        Matcher percent = HEAP_PERCENT.matcher(instance.env().get("JAVA_OPTS"));
        assertThat(percent.find()).as("the heap follows the limit").isTrue();
        double heap = limit * Double.parseDouble(percent.group(1)) / 100;
        assertThat(limit).as("%s: the RSS after listing every resource at a million", overlay)
            .isGreaterThanOrEqualTo((long) (memorySuite.rssAfterListingMb() * MIB));
        assertThat(heap).as("%s: the heap the memory suite's instance ran in", overlay)
            .isGreaterThanOrEqualTo(memorySuite.suiteHeapMib() * MIB)
            .isGreaterThan(memorySuite.heapAfterGcMb() * MIB);
        assertThat(limit - heap).as("%s: what the suite's instance used beside its heap", overlay)
            .isGreaterThanOrEqualTo((memorySuite.rssAfterListingMb() - memorySuite.suiteHeapMib()) * MIB);
        JsonNode startup = instance.container().path("startupProbe");
        long startupSeconds = startup.path("periodSeconds").asLong() * startup.path("failureThreshold").asLong();
        assertThat(startupSeconds).as("%s: the startup probe waits out a restore and the view's full read", overlay)
            .isGreaterThanOrEqualTo(Math.max(600, (long) (4 * memorySuite.startToReadySeconds())));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldLetTheNetworkPolicyReachWhatTheConfigurationNames(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        AppConfig config = instance.config();
        JsonNode policy = overlay.only("NetworkPolicy").path("spec");
        JsonNode podLabels = InstanceWiringTest.podLabels(instance);
        assertThat(InstanceWiringTest.selects(policy.path("podSelector").path("matchLabels"), podLabels)).isTrue();
        int http = config.getInt(ServerConfig.HTTP_PORT);
        assertThat(ports(policy.path("ingress"))).as("%s: clients, Prometheus and peers reach the REST port", overlay)
            .contains("TCP/" + http).doesNotContain("TCP/" + config.getInt(ServerConfig.PROBE_PORT));
        String bootstrap = config.getList(AppConfig.BOOTSTRAP_SERVERS).get(0);
        URI registry = URI.create(config.getString(AppConfig.SCHEMA_REGISTRY_URL));
        assertThat(ports(policy.path("egress"))).as("%s: DNS, Kafka, the registry, the other instances", overlay)
            .contains("UDP/53", "TCP/" + bootstrap.substring(bootstrap.lastIndexOf(':') + 1), "TCP/" + registry.getPort(),
                "TCP/" + http);
        boolean peers = false;
        for (JsonNode rule : policy.path("egress")) {
            for (JsonNode to : rule.path("to")) {
                peers |= InstanceWiringTest.selects(to.path("podSelector").path("matchLabels"), podLabels)
                    && ports(List.of(rule)).contains("TCP/" + http);
            }
        }
        assertThat(peers).as("%s: reads forwarded to a key's owner", overlay).isTrue();
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldReadOnlySecretsTheOverlayOrStrimziOrTheOperatorMakes(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        Set<String> made = new TreeSet<>();
        overlay.all("Secret").forEach(s -> made.add(s.path("metadata").path("name").asText()));
        overlay.all("KafkaUser").forEach(u -> made.add(u.path("metadata").path("name").asText()));
        overlay.all("KafkaUser").forEach(u -> made.add(u.path("metadata").path("labels").path("strimzi.io/cluster").asText()
            + "-cluster-ca-cert"));
        List<String> read = new ArrayList<>();
        instance.container().path("env").forEach(e -> read.add(e.path("valueFrom").path("secretKeyRef").path("name").asText()));
        instance.statefulSet().path("spec").path("template").path("spec").path("volumes")
            .forEach(v -> read.add(v.path("secret").path("secretName").asText()));
        read.removeIf(String::isEmpty);
        assertThat(read).as("%s reads Secrets", overlay).isNotEmpty();
        List<String> unmade = new ArrayList<>(read);
        unmade.removeAll(made);
        // The one the operator creates, as the overlay's and ops/kubernetes/README.md's instructions say.
        assertThat(unmade).as("%s: Secrets nobody makes", overlay).isSubsetOf(List.of("statesync-tokens"));
    }

    private static Set<String> ports(Iterable<JsonNode> rules) {
        Set<String> out = new TreeSet<>();
        for (JsonNode rule : rules) {
            rule.path("ports").forEach(p -> out.add(p.path("protocol").asText("TCP") + "/" + p.path("port").asText()));
        }
        return out;
    }

    private static long bytes(JsonNode quantity) {
        return Quantity.getAmountInBytes(new Quantity(quantity.asText())).longValueExact();
    }
}
