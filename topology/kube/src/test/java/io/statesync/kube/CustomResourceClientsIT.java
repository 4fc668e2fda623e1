package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kubernetes' client libraries against kinds that CustomResourceDefinitions define: the Python client's dynamic
 * client, fabric8's typed CustomResourceDefinition and its GenericKubernetesResource, and /openapi/v2 checked against
 * Swagger 2.0's JSON Schema.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class CustomResourceClientsIT {

    private static KubeTestApp app;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        app = KubeTestApp.start(KubeTestApp.config("kube-crd-clients"));
        client = KubeTestApp.client(app.base(), "default");
        client.apiextensions().v1().customResourceDefinitions().load(new java.io.ByteArrayInputStream(
            KubectlCustomResourceDefinitionIT.WIDGETS.getBytes(StandardCharsets.UTF_8))).create();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void shouldLetThePythonDynamicClientDefineAKindDiscoverItAndUseEveryVersion() throws Exception {
        PythonClientIT.requireModule("kubernetes");
        JsonNode seen = PythonClientIT.run("kube_custom_resources.py", app.base(), KubeTestApp.WRITER, "py-crd");

        assertThat(seen.path("established").toString()).contains("Established").contains("NamesAccepted");
        assertThat(seen.path("preferred").asText()).isEqualTo("v1");
        for (String version : new String[] {"v1", "v1beta1"}) {
            JsonNode v = seen.path(version);
            assertThat(v.path("apiVersion").asText()).isEqualTo("example.org/" + version);
            assertThat(v.path("listApiVersion").asText()).isEqualTo("example.org/" + version);
            assertThat(v.path("patched").asInt()).isEqualTo(2);
            assertThat(v.path("listed").toString()).isEqualTo("[\"g-" + version + "\"]");
        }
    }

    @Test
    void shouldServeFabric8sTypedDefinitionAndGenericResourcesOfTheDefinedGroup() {
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().withName("widgets.example.com").get();
        ResourceDefinitionContext widgets = new ResourceDefinitionContext.Builder().withGroup("example.com")
            .withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true).build();
        GenericKubernetesResource w = new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1").withKind("Widget")
            .withNewMetadata().withName("f8").withNamespace("fabric8").endMetadata()
            .addToAdditionalProperties("spec", Map.of("size", "large")).build();
        client.genericKubernetesResources(widgets).inNamespace("fabric8").resource(w).create();
        GenericKubernetesResource read = client.genericKubernetesResources(widgets).inNamespace("fabric8").withName("f8").get();
        List<GenericKubernetesResource> listed = client.genericKubernetesResources(widgets).inNamespace("fabric8").list().getItems();

        assertThat(crd.getSpec().getNames().getKind()).isEqualTo("Widget");
        assertThat(crd.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Established");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        assertThat(read.getApiVersion()).isEqualTo("example.com/v1");
        assertThat(read.getKind()).isEqualTo("Widget");
        assertThat(read.<String>get("spec", "size")).isEqualTo("large");
        assertThat(listed).extracting(r -> r.getMetadata().getName()).containsExactly("f8");
    }

    @Test
    void shouldServeAnOpenApiV2DocumentThatIsValidSwagger() throws Exception {
        PythonClientIT.requireModule("jsonschema");
        app.putKind("PlainKind", Map.of());
        Path schema = Path.of(CustomResourceClientsIT.class.getResource("/openapi/swagger-2.0.schema.json").toURI());
        JsonNode seen = PythonClientIT.run("openapi_v2_valid.py", schema.toString(), app.base(), KubeTestApp.WRITER);

        assertThat(seen.path("errors")).as(seen.toString()).isEmpty();
        assertThat(seen.path("definitions").toString()).contains("com.example.v1.Widget").contains("io.statesync.v1.PlainKind");
    }
}
