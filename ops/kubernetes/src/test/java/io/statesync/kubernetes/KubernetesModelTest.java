package io.statesync.kubernetes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every object each overlay renders parses into Kubernetes' typed model of its API version, with no field the model
 * does not know and nothing lost on the way back to JSON; custom resources, which have no typed model here, are held
 * to their API version and to apiVersion, kind, metadata and spec, and checked field by field by the other tests.
 */
class KubernetesModelTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Class<? extends HasMetadata>> TYPED = Map.of("StatefulSet", StatefulSet.class,
        "Service", Service.class, "ConfigMap", ConfigMap.class, "Secret", Secret.class,
        "PodDisruptionBudget", PodDisruptionBudget.class, "NetworkPolicy", NetworkPolicy.class);
    private static final Map<String, String> CUSTOM = Map.of("KafkaTopic", "kafka.strimzi.io/v1beta2",
        "KafkaUser", "kafka.strimzi.io/v1beta2", "ServiceMonitor", "monitoring.coreos.com/v1",
        "PrometheusRule", "monitoring.coreos.com/v1");

    @ParameterizedTest
    @MethodSource(RenderedOverlay.ALL)
    void shouldParseEveryObjectIntoItsTypedModelWithNoUnknownField(RenderedOverlay overlay) throws IOException {
        List<String> problems = new ArrayList<>();
        for (JsonNode object : overlay.objects()) {
            String kind = object.path("kind").asText();
            String where = kind + "/" + object.path("metadata").path("name").asText();
            assertThat(TYPED.containsKey(kind) || CUSTOM.containsKey(kind)).as("%s: a kind this test knows", where).isTrue();
            if (TYPED.containsKey(kind)) {
                Class<? extends HasMetadata> type = TYPED.get(kind);
                assertThat(object.path("apiVersion").asText()).as(where).isEqualTo(HasMetadata.getApiVersion(type));
                HasMetadata typed = SERIALIZATION.unmarshal(object.toString(), type);
                UnknownFields.of(typed).forEach(f -> problems.add(where + ": unknown field " + f));
                assertThat(JSON.readTree(SERIALIZATION.asJson(typed))).as("%s read back from its model", where).isEqualTo(object);
            } else {
                assertThat(object.path("apiVersion").asText()).as(where).isEqualTo(CUSTOM.get(kind));
                List<String> fields = new ArrayList<>();
                object.fieldNames().forEachRemaining(fields::add);
                assertThat(fields).as(where).containsExactlyInAnyOrder("apiVersion", "kind", "metadata", "spec");
                GenericKubernetesResource generic = SERIALIZATION.unmarshal(object.toString(), GenericKubernetesResource.class);
                UnknownFields.of(generic.getMetadata()).forEach(f -> problems.add(where + ": unknown metadata field " + f));
            }
        }
        assertThat(problems).as("%s: fields Kubernetes would reject or ignore", overlay).isEmpty();
    }

    @Test
    void shouldNameAFieldTheTypedModelDoesNotKnow() {
        String probe = "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"s\",\"label\":{}},"
            + "\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"readinessProbe\":{\"periodSecond\":5}}]}}}}";
        StatefulSet parsed = SERIALIZATION.unmarshal(probe, StatefulSet.class);
        assertThat(UnknownFields.of(parsed)).containsExactlyInAnyOrder("metadata.label",
            "spec.template.spec.containers[0].readinessProbe.periodSecond");
    }
}
