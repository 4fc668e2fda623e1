package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code kubectl apply --server-side} against a real instance: managers, conflicts, removal by ownership, dry runs. */
@ExtendWith(EmbeddedClusterExtension.class)
class KubectlServerSideApplyIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static KubeTestApp app;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        Kubectl.require();
        Map<String, Object> config = KubeTestApp.config("kubectl-ssa");
        config.remove(ServerConfig.AUTH_TOKENS);
        app = KubeTestApp.start(config);
        kubectl = Kubectl.of(app);
        app.putKind("WebApp", Map.of("shortNames", List.of("wa"), "correctionDeadlineMs", 3_600_000L));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static String webApp(String namespace, String name, String spec, String labels) {
        return "apiVersion: statesync.io/v1\nkind: WebApp\nmetadata:\n  name: " + name + "\n  namespace: " + namespace
            + (labels.isEmpty() ? "" : "\n  labels:\n" + labels) + "\nspec:\n" + spec + "\n";
    }

    private static Kubectl.Result ok(String stdin, String... args) throws Exception {
        Kubectl.Result r = kubectl.run(stdin, args);
        assertThat(r.exit()).as("kubectl %s: %s", String.join(" ", args), r.all()).isZero();
        return r;
    }

    private static JsonNode object(String namespace, String name) throws Exception {
        return JSON.readTree(ok(null, "get", "webapp", name, "-n", namespace, "-o", "json", "--show-managed-fields").out());
    }

    @Test
    void shouldCreateThenUpdateWithServerSideApply() throws Exception {
        Kubectl.Result created = ok(webApp("ssa1", "a", "  image: nginx:1\n  replicas: 1", ""), "apply", "--server-side", "-f", "-");
        Kubectl.Result updated = ok(webApp("ssa1", "a", "  image: nginx:1\n  replicas: 3", ""), "apply", "--server-side", "-f", "-");
        JsonNode a = object("ssa1", "a");

        assertThat(created.out()).contains("webapp.statesync.io/a serverside-applied");
        assertThat(updated.out()).contains("webapp.statesync.io/a serverside-applied");
        assertThat(a.path("spec").path("replicas").asInt()).isEqualTo(3);
        assertThat(a.path("metadata").path("generation").asLong()).isEqualTo(2);
        JsonNode entry = a.path("metadata").path("managedFields").get(0);
        assertThat(entry.path("manager").asText()).isEqualTo("kubectl");
        assertThat(entry.path("operation").asText()).isEqualTo("Apply");
        assertThat(entry.path("fieldsType").asText()).isEqualTo("FieldsV1");
        assertThat(entry.path("fieldsV1").path("f:spec").has("f:replicas")).isTrue();
        assertThat(entry.path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }

    @Test
    void shouldRefuseAnotherManagerChangingAnOwnedFieldUntilForced() throws Exception {
        ok(webApp("ssa2", "b", "  image: nginx:1\n  replicas: 1", ""), "apply", "--server-side", "-f", "-");

        Kubectl.Result conflict = kubectl.run(webApp("ssa2", "b", "  replicas: 5", ""), "apply", "--server-side",
            "--field-manager", "scaler", "-f", "-");
        String before = ok(null, "get", "webapp", "b", "-n", "ssa2", "-o", "jsonpath={.spec.replicas}").out();
        ok(webApp("ssa2", "b", "  replicas: 5", ""), "apply", "--server-side", "--field-manager", "scaler",
            "--force-conflicts", "-f", "-");
        JsonNode b = object("ssa2", "b");

        assertThat(conflict.exit()).isNotZero();
        assertThat(conflict.err()).contains("Apply failed with 1 conflict").contains("conflict with \"kubectl\"")
            .contains(".spec.replicas");
        assertThat(before).isEqualTo("1");
        assertThat(b.path("spec").path("replicas").asInt()).isEqualTo(5);
        assertThat(b.path("spec").path("image").asText()).isEqualTo("nginx:1");
        assertThat(fieldsOf(b, "scaler").path("f:spec").has("f:replicas")).isTrue();
        assertThat(fieldsOf(b, "kubectl").path("f:spec").has("f:replicas")).isFalse();
        assertThat(fieldsOf(b, "kubectl").path("f:spec").has("f:image")).isTrue();
    }

    @Test
    void shouldRemoveAFieldItsOnlyManagerDropsAndKeepOneAnotherStillSets() throws Exception {
        String both = "    team: a\n    tier: web";
        ok(webApp("ssa3", "c", "  image: nginx:1", both), "apply", "--server-side", "-f", "-");
        ok(webApp("ssa3", "c", "  image: nginx:1", "    tier: web"), "apply", "--server-side", "--field-manager", "other", "-f", "-");

        ok(webApp("ssa3", "c", "  image: nginx:1", ""), "apply", "--server-side", "-f", "-");
        JsonNode afterFirst = object("ssa3", "c");
        ok(webApp("ssa3", "c", "  image: nginx:1", ""), "apply", "--server-side", "--field-manager", "other", "-f", "-");
        JsonNode afterBoth = object("ssa3", "c");

        assertThat(afterFirst.path("metadata").path("labels").has("team")).isFalse();
        assertThat(afterFirst.path("metadata").path("labels").path("tier").asText()).isEqualTo("web");
        assertThat(afterBoth.path("metadata").path("labels").has("tier")).isFalse();
    }

    @Test
    void shouldWriteNothingOnAServerDryRunAndShowTheChangeInADiff() throws Exception {
        ok(webApp("ssa4", "d", "  image: nginx:1", ""), "apply", "--server-side", "-f", "-");
        String version = ok(null, "get", "webapp", "d", "-n", "ssa4", "-o", "jsonpath={.metadata.resourceVersion}").out();

        Kubectl.Result dryRun = ok(webApp("ssa4", "d", "  image: nginx:2", ""), "apply", "--server-side", "--dry-run=server", "-f", "-");
        Kubectl.Result diff = kubectl.run(webApp("ssa4", "d", "  image: nginx:2", ""), "diff", "--server-side", "-f", "-");
        Kubectl.Result same = kubectl.run(webApp("ssa4", "d", "  image: nginx:1", ""), "diff", "--server-side", "-f", "-");
        JsonNode d = object("ssa4", "d");

        assertThat(dryRun.out()).contains("serverside-applied (server dry run)");
        assertThat(diff.exit()).as(diff.all()).isEqualTo(1);
        assertThat(diff.out()).contains("-  image: nginx:1").contains("+  image: nginx:2");
        assertThat(same.exit()).as(same.all()).isZero();
        assertThat(d.path("spec").path("image").asText()).isEqualTo("nginx:1");
        assertThat(d.path("metadata").path("resourceVersion").asText()).isEqualTo(version);
    }

    @Test
    void shouldShowEveryManagerOnlyWithShowManagedFields() throws Exception {
        ok(webApp("ssa5", "e", "  image: nginx:1", ""), "apply", "--server-side", "-f", "-");
        ok(null, "patch", "webapp", "e", "-n", "ssa5", "--type", "merge", "-p", "{\"spec\":{\"replicas\":2}}");

        String hidden = ok(null, "get", "webapp", "e", "-n", "ssa5", "-o", "yaml").out();
        String shown = ok(null, "get", "webapp", "e", "-n", "ssa5", "-o", "yaml", "--show-managed-fields").out();

        assertThat(hidden).doesNotContain("managedFields");
        assertThat(shown).contains("managedFields:").contains("manager: kubectl").contains("operation: Apply")
            .contains("manager: kubectl-patch").contains("operation: Update").contains("f:replicas: {}");
    }

    private static JsonNode fieldsOf(JsonNode object, String manager) {
        for (JsonNode e : object.path("metadata").path("managedFields")) {
            if (e.path("manager").asText().equals(manager)) {
                return e.path("fieldsV1");
            }
        }
        return JSON.createObjectNode();
    }
}
