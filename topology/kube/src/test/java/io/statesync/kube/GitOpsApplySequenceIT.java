package io.statesync.kube;

import static io.statesync.kube.KubeTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The requests a GitOps controller that applies only server-side (Flux's kustomize-controller) sends for one object,
 * in its order: read, dry-run apply with force, compare with the live object, apply, drop a stale manager with a JSON
 * patch on {@code /metadata/managedFields}, and a second reconciliation that finds nothing to change.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class GitOpsApplySequenceIT {

    private static final String PATH = "/apis/statesync.io/v1/namespaces/gitops/gitapps/site";
    private static final String APPLY = "application/apply-patch+yaml";
    private static final String MANAGER = "?fieldManager=kustomize-controller&force=true";

    private static String config(int replicas) {
        return "apiVersion: statesync.io/v1\nkind: GitApp\nmetadata:\n  name: site\n  namespace: gitops\n"
            + "  labels:\n    kustomize.toolkit.fluxcd.io/name: apps\nspec:\n  image: nginx:1\n  replicas: " + replicas + "\n";
    }

    /** What a controller compares: the object without the fields the server sets on every write. */
    private static JsonNode comparable(JsonNode object) {
        ObjectNode n = object.deepCopy();
        n.remove("status");
        ObjectNode meta = (ObjectNode) n.get("metadata");
        meta.remove("managedFields");
        meta.remove("resourceVersion");
        return n;
    }

    @Test
    void shouldConvergeAsAGitOpsControllerAppliesAndSendNoWriteWhenNothingChanged() throws Exception {
        try (KubeTestApp app = KubeTestApp.start(KubeTestApp.config("kube-gitops"))) {
            app.putKind("GitApp", Map.of("plural", "gitapps", "correctionDeadlineMs", 3_600_000L));
            // Someone created the object by hand before the controller took it over.
            assertThat(app.send("POST", PATH.substring(0, PATH.lastIndexOf('/')) + "?fieldManager=kubectl-create",
                new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(config(1)),
                "application/json").statusCode()).isEqualTo(201);

            JsonNode live = json(app.send("GET", PATH, null, null));
            JsonNode dryRun = json(app.send("PATCH", PATH + MANAGER + "&dryRun=All", config(2), APPLY));
            boolean drifted = !comparable(dryRun).equals(comparable(live));
            HttpResponse<String> applied = app.send("PATCH", PATH + MANAGER, config(2), APPLY);
            JsonNode afterApply = json(applied);
            int stale = indexOf(afterApply, "kubectl-create", "Update");
            HttpResponse<String> dropped = app.send("PATCH", PATH + "?fieldManager=kustomize-controller",
                "[{\"op\":\"test\",\"path\":\"/metadata/managedFields/" + stale + "/manager\",\"value\":\"kubectl-create\"},"
                    + "{\"op\":\"remove\",\"path\":\"/metadata/managedFields/" + stale + "\"}]", "application/json-patch+json");
            JsonNode settled = json(app.send("GET", PATH, null, null));
            JsonNode secondDryRun = json(app.send("PATCH", PATH + MANAGER + "&dryRun=All", config(2), APPLY));
            JsonNode untouched = json(app.send("GET", PATH, null, null));

            assertThat(drifted).isTrue();
            assertThat(json(app.send("GET", PATH, null, null)).path("spec").path("replicas").asInt()).isEqualTo(2);
            assertThat(applied.statusCode()).isEqualTo(200);
            assertThat(stale).isNotNegative();
            assertThat(dropped.statusCode()).as(dropped.body()).isEqualTo(200);
            assertThat(indexOf(settled, "kubectl-create", "Update")).isNegative();
            assertThat(settled.path("metadata").path("managedFields")).hasSize(1);
            assertThat(indexOf(settled, "kustomize-controller", "Apply")).isNotNegative();
            assertThat(comparable(secondDryRun)).isEqualTo(comparable(settled));
            assertThat(untouched.path("metadata").path("resourceVersion").asText())
                .isEqualTo(settled.path("metadata").path("resourceVersion").asText());
        }
    }

    private static int indexOf(JsonNode object, String manager, String operation) {
        JsonNode entries = object.path("metadata").path("managedFields");
        for (int i = 0; i < entries.size(); i++) {
            JsonNode e = entries.get(i);
            if (e.path("manager").asText().equals(manager) && e.path("operation").asText().equals(operation)) {
                return i;
            }
        }
        return -1;
    }
}
