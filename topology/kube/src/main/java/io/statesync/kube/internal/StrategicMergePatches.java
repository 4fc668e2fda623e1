package io.statesync.kube.internal;

import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.rest.ApiError;

/**
 * Strategic merge patches of kinds in Kubernetes' own groups ({@code apps/v1 Deployment} defined here by a
 * CustomResourceDefinition, say). kubectl sends one for such a kind whatever the server serves, and computes it from
 * the schema the server publishes, which declares no patch strategy: every list is then replaced whole, so the patch
 * means what the same JSON merge patch means, and it is applied as one. A patch that carries a strategy's directive
 * ({@code $patch}, {@code $setElementOrder/...}, {@code $retainKeys}, {@code $deleteFromPrimitiveList/...}), which
 * only a client with its own patch strategies writes, is refused rather than misread.
 */
final class StrategicMergePatches {

    static final String MEDIA_TYPE = "application/strategic-merge-patch+json";

    /** Kubernetes' built-in API groups, whose kinds kubectl patches strategically; "" is the core group. */
    private static final Set<String> BUILT_IN_GROUPS = Set.of("", "apps", "batch", "autoscaling", "policy",
        "networking.k8s.io", "rbac.authorization.k8s.io", "storage.k8s.io", "scheduling.k8s.io", "coordination.k8s.io",
        "discovery.k8s.io", "node.k8s.io", "certificates.k8s.io", "admissionregistration.k8s.io", "apiextensions.k8s.io");

    private StrategicMergePatches() {
    }

    static boolean accepted(KindCatalog.Kind kind) {
        return BUILT_IN_GROUPS.contains(kind.group());
    }

    /** Refuses (422) a patch that carries a directive anywhere in it. */
    static void requireNoDirectives(JsonNode patch) {
        String directive = directive(patch, "");
        if (directive != null) {
            String message = "Forbidden: the strategic merge patch directive is not supported: the served schema declares"
                + " no patch strategy; apply with --server-side, or send a JSON merge patch";
            throw ApiError.invalid(directive.substring(1) + ": " + message,
                java.util.List.of(new ApiError.Cause("FieldValueForbidden", message, directive.substring(1))));
        }
    }

    private static String directive(JsonNode n, String path) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                String at = path + "." + e.getKey();
                if (e.getKey().startsWith("$")) {
                    return at;
                }
                String inner = directive(e.getValue(), at);
                if (inner != null) {
                    return inner;
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                String inner = directive(n.get(i), path + "[" + i + "]");
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }
}
