package io.statesync.kubernetes;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.rest.TokenAuth;
import io.statesync.rest.internal.InstanceHealth;
import io.statesync.rest.internal.ProbeServer;
import io.statesync.server.ServerConfig;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The StatefulSet of each overlay against the code it runs: the probe listener's paths and port, the configuration
 * keys, the image the Dockerfile builds, the stable name other instances forward to, and a stop that leaves the group.
 */
class InstanceWiringTest {

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldProbeTheProbeListenersPathsOnProbePort(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        AppConfig config = instance.config();
        int probePort = config.getInt(ServerConfig.PROBE_PORT);
        assertThat(probePort).as("a fixed probe.port (0 would bind a random one)").isPositive()
            .isNotEqualTo(config.getInt(ServerConfig.HTTP_PORT));
        // The instance's own answers: the liveness body has "status", the readiness body "ready".
        InstanceHealth health = new InstanceHealth(() -> null, () -> { }, () -> true, () -> true);
        Map<String, String> bodyKeyByProbe = Map.of("livenessProbe", "\"status\"", "readinessProbe", "\"ready\"",
            "startupProbe", "\"ready\"");
        for (var probe : bodyKeyByProbe.entrySet()) {
            JsonNode httpGet = instance.container().path(probe.getKey()).path("httpGet");
            ProbeServer.Answer answer = health.probeAnswer(httpGet.path("path").asText());
            assertThat(answer).as("%s %s: a path the probe listener serves", overlay, probe.getKey()).isNotNull();
            assertThat(new String(answer.json(), StandardCharsets.UTF_8)).as("%s %s", overlay, probe.getKey())
                .contains(probe.getValue());
            assertThat(containerPort(instance.container(), httpGet.path("port"))).as("%s %s port", overlay, probe.getKey())
                .isEqualTo(probePort);
        }
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldSetOnlyConfigurationKeysTheReferenceDefines(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        List<String> unknown = new ArrayList<>();
        instance.env().forEach((name, value) -> {
            if (name.startsWith(AppConfig.ENV_PREFIX) && !AppConfig.LAUNCHER_ENV.contains(name)) {
                String key = AppConfig.fromEnvironment(Map.of(name, value)).keySet().iterator().next();
                if (!isKnownKey(key)) {
                    unknown.add(name + " (" + key + ")");
                }
            }
        });
        for (JsonNode from : instance.container().path("envFrom")) {
            overlay.named("ConfigMap", from.path("configMapRef").path("name").asText()).path("data").fieldNames()
                .forEachRemaining(name -> assertThat(name).as("%s: a ConfigMap key the instance reads", overlay)
                    .startsWith(AppConfig.ENV_PREFIX));
        }
        assertThat(unknown).as("%s: keys in neither docs/configuration.md nor a Kafka client's settings", overlay).isEmpty();
        assertThat(instance.config().getInt(ServerConfig.TOPIC_PARTITIONS)).isPositive();
    }

    /** A key of the reference (AppConfig and every section), or a Kafka client setting under its pass-through prefix. */
    static boolean isKnownKey(String key) {
        if (AppConfig.configDef().configKeys().containsKey(key)) {
            return true;
        }
        if (key.startsWith(AppConfig.KAFKA_PREFIX)) {
            String setting = key.substring(AppConfig.KAFKA_PREFIX.length());
            return ProducerConfig.configNames().contains(setting) || ConsumerConfig.configNames().contains(setting)
                || AdminClientConfig.configNames().contains(setting);
        }
        if (key.startsWith(AppConfig.STREAMS_PREFIX)) {
            String setting = key.substring(AppConfig.STREAMS_PREFIX.length());
            return StreamsConfig.configDef().names().contains(setting)
                || setting.startsWith(StreamsConfig.TOPIC_PREFIX) && isTopicConfig(setting.substring(StreamsConfig.TOPIC_PREFIX.length()));
        }
        return false;
    }

    private static boolean isTopicConfig(String name) {
        for (var field : TopicConfig.class.getFields()) {
            try {
                if (field.getName().endsWith("_CONFIG") && name.equals(field.get(null))) {
                    return true;
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return false;
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldRunTheImageTheDockerfileBuildsAsItsUserOnItsPortsAndVolume(RenderedOverlay overlay) {
        ImageSpec image = ImageSpec.ofRepository();
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        JsonNode container = instance.container();
        JsonNode podSecurity = instance.statefulSet().path("spec").path("template").path("spec").path("securityContext");
        assertThat(container.has("command")).as("%s keeps the image's entrypoint %s", overlay, image.entrypoint()).isFalse();
        assertThat(container.path("args").get(0).asText()).isEqualTo(image.cmd().get(0));
        assertThat(podSecurity.path("runAsUser").asLong()).isEqualTo(image.uid());
        assertThat(podSecurity.path("runAsGroup").asLong()).isEqualTo(image.gid());
        assertThat(podSecurity.path("fsGroup").asLong()).as("the volume writable by the image's group").isEqualTo(image.gid());
        AppConfig config = instance.config();
        assertThat(image.exposed()).contains(config.getInt(ServerConfig.HTTP_PORT));
        assertThat(containerPort(container, RenderedOverlay.YAML.getNodeFactory().textNode("http")))
            .isEqualTo(config.getInt(ServerConfig.HTTP_PORT));
        String data = mountPath(container, "data");
        assertThat(data).as("%s mounts its claim where the image keeps its data", overlay).isEqualTo(image.volume());
        assertThat(config.getString(AppConfig.STATE_DIR)).as("state.dir, and the view's snapshot in it").startsWith(data + "/");
        assertThat(instance.env().get("STATESYNC_CDS_DIR")).as("the class-data archive").startsWith(data + "/");
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(mountPath(container, "tmp")).as("the temporary directory RocksDB unpacks its library to").isEqualTo("/tmp");
        assertThat(instance.env().get("JAVA_OPTS")).as("the image's OOM exit kept").contains("-XX:+ExitOnOutOfMemoryError");
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldAdvertiseThePodsStableNameThroughTheHeadlessService(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        String serviceName = instance.statefulSet().path("spec").path("serviceName").asText();
        JsonNode service = overlay.named("Service", serviceName);
        assertThat(service.path("spec").path("clusterIP").asText()).as("%s: headless", serviceName).isEqualTo("None");
        assertThat(service.path("spec").path("publishNotReadyAddresses").asBoolean()).isTrue();
        assertThat(selects(service.path("spec").path("selector"), podLabels(instance))).isTrue();
        AppConfig config = instance.config();
        assertThat(config.getString(ServerConfig.APPLICATION_SERVER)).isEqualTo(instance.podName(0) + "." + serviceName
            + "." + instance.namespace() + ".svc:" + config.getInt(ServerConfig.HTTP_PORT));
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldGiveTheStopTimeToCloseTheStreamsAndLeaveTheGroup(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        JsonNode preStop = instance.container().path("lifecycle").path("preStop").path("exec").path("command");
        assertThat(preStop.get(0).asText()).isEqualTo("sleep");
        long preStopSeconds = preStop.get(1).asLong();
        long grace = instance.statefulSet().path("spec").path("template").path("spec").path("terminationGracePeriodSeconds").asLong();
        // After the streams close: the view's snapshot and the class-data archive are written.
        long afterClose = 15;
        assertThat(grace).as("%s: preStop, then the streams' close (leaving the group), then the snapshot", overlay)
            .isGreaterThanOrEqualTo(preStopSeconds + StatesyncApp.CLOSE_TIMEOUT.toSeconds() + afterClose);
        assertThat(instance.config().getString(ServerConfig.GROUP_INSTANCE_ID))
            .as("dynamic membership: a stop leaves the group, so the rebalance starts at once").isEmpty();
    }

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldFindEveryConfiguredFileInAVolumeOfThePod(RenderedOverlay overlay) {
        InstanceEnvironment instance = InstanceEnvironment.of(overlay);
        AppConfig config = instance.config();
        Map<String, String> files = new TreeMap<>();
        config.originals().forEach((key, value) -> {
            if ((key.endsWith(".file") || key.endsWith(".location") || key.endsWith(".path")) && !value.toString().isEmpty()) {
                files.put(key, value.toString());
            }
        });
        assertThat(files).as("%s: the tokens and the trust store", overlay).hasSizeGreaterThanOrEqualTo(2);
        for (var file : files.entrySet()) {
            JsonNode source = volumeFile(instance, file.getValue());
            assertThat(source).as("%s: %s is a file a mounted Secret or ConfigMap projects", overlay, file).isNotNull();
            if (!file.getKey().equals(ServerConfig.AUTH_TOKENS_FILE)) {
                continue;
            }
            String secret = source.path("secretName").asText();
            overlay.all("Secret").stream().filter(s -> secret.equals(s.path("metadata").path("name").asText())).forEach(s -> {
                String tokens = new String(Base64.getDecoder().decode(s.path("data").path(source.path("key").asText()).asText()),
                    StandardCharsets.UTF_8);
                assertThat(TokenAuth.parse(tokens.lines().toList()).enabled()).as("%s: %s parses as token:role lines", overlay, file)
                    .isTrue();
            });
        }
    }

    /** The volume item (its key, and the Secret's name) that puts a file at {@code path}, or null. */
    private static JsonNode volumeFile(InstanceEnvironment instance, String path) {
        JsonNode volumes = instance.statefulSet().path("spec").path("template").path("spec").path("volumes");
        for (JsonNode mount : instance.container().path("volumeMounts")) {
            for (JsonNode volume : volumes) {
                JsonNode projected = volume.has("secret") ? volume.path("secret") : volume.path("configMap");
                if (!volume.path("name").asText().equals(mount.path("name").asText())) {
                    continue;
                }
                for (JsonNode item : projected.path("items")) {
                    if (path.equals(mount.path("mountPath").asText() + "/" + item.path("path").asText())) {
                        return ((ObjectNode) item.deepCopy())
                            .put("secretName", projected.path("secretName").asText());
                    }
                }
            }
        }
        return null;
    }

    static JsonNode podLabels(InstanceEnvironment instance) {
        return instance.statefulSet().path("spec").path("template").path("metadata").path("labels");
    }

    static boolean selects(JsonNode selector, JsonNode labels) {
        List<String> missing = new ArrayList<>();
        selector.properties().forEach(e -> {
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                missing.add(e.getKey());
            }
        });
        return !selector.isEmpty() && missing.isEmpty();
    }

    /** The container port a probe or Service names, by number or by name. */
    static int containerPort(JsonNode container, JsonNode port) {
        if (port.isInt()) {
            return port.asInt();
        }
        for (JsonNode p : container.path("ports")) {
            if (port.asText().equals(p.path("name").asText())) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + port);
    }

    static String mountPath(JsonNode container, String volume) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (volume.equals(mount.path("name").asText())) {
                return mount.path("mountPath").asText();
            }
        }
        throw new AssertionError("no mount of volume " + volume);
    }
}
