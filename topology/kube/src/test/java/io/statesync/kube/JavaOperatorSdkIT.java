package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.example.widget.Widget;
import com.example.widget.WidgetOperator;
import com.example.widget.WidgetReconciler;
import com.example.widget.WidgetSpec;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator built with Java Operator SDK as its documentation shows ({@code com.example.widget}, the code of
 * {@code docs/examples/widget-operator}; it knows nothing of statesync) runs against statesync's Kubernetes API: it
 * reconciles widgets, the framework adds its finalizer and applies each widget's {@code WidgetConfig} with
 * server-side apply, the reconciler patches the widget's status, and deleting a widget runs its cleanup.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class JavaOperatorSdkIT {

    private static final String FINALIZER = "widgets.example.com/finalizer";

    private static KubeTestApp app;
    private static KubernetesClient client;
    private static WidgetReconciler reconciler;
    private static Operator operator;
    private static final List<String> INFORMER_FAILURES = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        app = KubeTestApp.start(KubeTestApp.config("kube-josdk"));
        client = KubeTestApp.client(app.base(), "default");
        try (InputStream crds = Files.newInputStream(exampleDir().resolve("crds.yaml"))) {
            client.load(crds).serverSideApply();
        }
        await().atMost(Duration.ofSeconds(30)).until(() ->
            app.send("GET", "/apis/example.com/v1/widgetconfigs", null, null).statusCode() == 200);
        reconciler = new WidgetReconciler();
        // An informer that stops makes the framework exit the JVM by default; here it fails the tests instead.
        operator = WidgetOperator.create(client, reconciler, o -> o.withInformerStoppedHandler((informer, e) ->
            INFORMER_FAILURES.add(informer.getApiTypeClass().getSimpleName() + ": " + e)));
        operator.start();
    }

    @org.junit.jupiter.api.AfterEach
    void noInformerStopped() {
        assertThat(INFORMER_FAILURES).as("the operator's informers kept running").isEmpty();
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.stop();
        }
        if (client != null) {
            client.close();
        }
        if (app != null) {
            app.close();
        }
    }

    /** {@code docs/examples/widget-operator} of this checkout. */
    static Path exampleDir() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("docs/examples/widget-operator"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the checkout's docs/examples/widget-operator").isNotNull();
        return dir.resolve("docs/examples/widget-operator");
    }

    private static Widget widget(String namespace, String name, int replicas) {
        Widget w = new Widget();
        w.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        WidgetSpec spec = new WidgetSpec();
        spec.setReplicas(replicas);
        spec.setMessage("hello " + name);
        w.setSpec(spec);
        return w;
    }

    private static JsonNode read(String namespace, String plural, String name) {
        var r = app.send("GET", "/apis/example.com/v1/namespaces/" + namespace + "/" + plural + "/" + name, null, null);
        return r.statusCode() == 200 ? KubeTestApp.json(r) : null;
    }

    @Test
    void shouldReconcileAddTheFinalizerApplyTheDependentAndCleanUpBeforeTheWidgetIsGone() {
        String ns = "josdk-lifecycle";
        client.resources(Widget.class).inNamespace(ns).resource(widget(ns, "shop", 2)).create();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Widget w = client.resources(Widget.class).inNamespace(ns).withName("shop").get();
            assertThat(w.getMetadata().getFinalizers()).as("the framework's finalizer").contains(FINALIZER);
        });
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode config = read(ns, "widgetconfigs", "shop-config");
            assertThat(config).as("the dependent WidgetConfig").isNotNull();
            assertThat(config.path("spec").path("data").path("message").asText()).isEqualTo("hello shop");
            assertThat(config.path("spec").path("data").path("replicas").asText()).isEqualTo("2");
            assertThat(config.path("metadata").path("ownerReferences").toString()).contains("\"kind\":\"Widget\"")
                .contains("\"name\":\"shop\"");
            assertThat(managers(config, "Apply")).as("written with server-side apply by the operator")
                .contains(WidgetReconciler.NAME);
        });

        client.resources(Widget.class).inNamespace(ns).withName("shop").delete();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(reconciler.cleanedUp()).as("the operator's cleanup ran").contains(ns + "/shop");
            assertThat(read(ns, "widgets", "shop")).as("gone once the finalizer is removed").isNull();
        });
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
            assertThat(read(ns, "widgetconfigs", "shop-config")).as("the dependent is collected with its owner").isNull());
    }

    /**
     * Needs status writes: the operator's status patch is its report of the widget. The Kubernetes API shows the
     * widget's status as its schema declares it; statesync's own verdict is on {@code /api/v1}.
     */
    @Test
    void shouldShowTheWidgetSyncedAndHealthyFromTheStatusTheOperatorPatched() {
        String ns = "josdk-status";
        client.resources(Widget.class).inNamespace(ns).resource(widget(ns, "cart", 3)).create();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode status = read(ns, "widgets", "cart").path("status");
            assertThat(status.path("readyReplicas").asInt()).as(status.toString()).isEqualTo(3);
            assertThat(readyCondition(status)).as(status.toString()).isEqualTo("True");
            assertThat(status.has("syncStatus")).as("only the fields the status schema declares").isFalse();
        });
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode status = KubeTestApp.json(app.send("GET", "/api/v1/resources/Widget.example.com/" + ns + "/cart",
                null, null)).path("status");
            assertThat(status.path("syncStatus").asText()).as(status.toString()).isEqualTo("Synced");
            assertThat(status.path("health").path("status").asText()).as(status.toString()).isEqualTo("Healthy");
        });
        Widget typed = client.resources(Widget.class).inNamespace(ns).withName("cart").get();
        assertThat(typed.getStatus().getReadyReplicas()).as("the operator reads its own status back").isEqualTo(3);
    }

    private static String readyCondition(JsonNode status) {
        for (JsonNode c : status.path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return c.path("status").asText();
            }
        }
        return null;
    }

    /** The field managers of {@code object} with {@code operation}. */
    private static List<String> managers(JsonNode object, String operation) {
        List<String> out = new ArrayList<>();
        for (JsonNode entry : object.path("metadata").path("managedFields")) {
            if (operation.equals(entry.path("operation").asText())) {
                out.add(entry.path("manager").asText());
            }
        }
        return out;
    }
}
