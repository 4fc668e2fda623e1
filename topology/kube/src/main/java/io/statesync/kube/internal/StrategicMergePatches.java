package io.statesync.kube.internal;

import java.util.Set;

/**
 * Which kinds take a strategic merge patch: those of Kubernetes' own groups ({@code apps/v1 Deployment} defined here
 * by a CustomResourceDefinition, say), for which kubectl sends one whatever the server serves, with its own patch
 * strategies written into the patch as directives. Admission applies it ({@code StrategicMergePatch} in the engine).
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
}
