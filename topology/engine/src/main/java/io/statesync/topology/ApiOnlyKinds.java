package io.statesync.topology;

import java.util.Set;

/**
 * The kinds whose objects only the API serves, with statesync as their one controller and no agent: the
 * CustomResourceDefinitions that define kinds, and namespaces. Their objects are stored, versioned, listed and watched
 * like any other, but no correction is ever planned for them: what they say takes effect in statesync itself, so
 * their observed state is their spec, at once.
 */
public final class ApiOnlyKinds {

    public static final String CUSTOM_RESOURCE_DEFINITION =
        ResourceKey.qualifiedKind("CustomResourceDefinition", "apiextensions.k8s.io");
    public static final String NAMESPACE = ResourceKey.qualifiedKind("Namespace", "");

    /**
     * The finalizer that holds a namespace while the resources in it are deleted, as Kubernetes' {@code kubernetes}
     * finalizer does: admission keeps it on every namespace that is not being deleted, and the server's namespace
     * deleter removes it once the namespace is empty, after which the namespace goes.
     */
    public static final String NAMESPACE_FINALIZER = "kubernetes";

    /**
     * The finalizer that holds a CustomResourceDefinition while the objects of its kind are deleted, as Kubernetes'
     * {@code customresourcecleanup.apiextensions.k8s.io} does: kept by admission on every definition that is not
     * being deleted, removed by the server's content deleter once no object of the kind is left.
     */
    public static final String DEFINITION_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

    private static final Set<String> KINDS = Set.of(CUSTOM_RESOURCE_DEFINITION, NAMESPACE);
    private static final String DEFINITION_SUFFIX = "/definition";

    private ApiOnlyKinds() {
    }

    public static boolean contains(String kind) {
        return KINDS.contains(kind);
    }

    /** The finalizer admission keeps on every object of {@code kind} not being deleted, or null for none. */
    public static String finalizerOf(String kind) {
        return NAMESPACE.equals(kind) ? NAMESPACE_FINALIZER
            : CUSTOM_RESOURCE_DEFINITION.equals(kind) ? DEFINITION_FINALIZER : null;
    }

    /**
     * The write with its kind's finalizer ({@link #finalizerOf}) added when it writes an object that is not being
     * deleted and lacks it, and a namespace with an empty spec when it has none; otherwise {@code write} itself. An
     * object being deleted keeps what the write says, so that the finalizer can be removed once its contents are gone.
     */
    public static io.statesync.avro.DesiredState withApiFinalizer(io.statesync.avro.Resource current,
                                                                  io.statesync.avro.DesiredState write) {
        String finalizer = finalizerOf(write.getKind());
        if (finalizer == null) {
            return write;
        }
        boolean deleting = current != null && current.getMetadata().getDeletionTimestamp() != null;
        boolean addFinalizer = !deleting && !write.getFinalizers().contains(finalizer);
        boolean noSpec = NAMESPACE.equals(write.getKind()) && (write.getSpec() == null || write.getSpec().getValue() == null);
        if (!addFinalizer && !noSpec) {
            return write;
        }
        io.statesync.avro.DesiredState.Builder b = io.statesync.avro.DesiredState.newBuilder(write);
        if (noSpec) {
            // A namespace says nothing in its spec; an empty one keeps it Synced rather than read as an orphan.
            b.setSpec(io.statesync.schemas.Values.fromJava(java.util.Map.of()));
        }
        if (addFinalizer) {
            java.util.List<String> finalizers = new java.util.ArrayList<>(write.getFinalizers());
            finalizers.add(finalizer);
            b.setFinalizers(finalizers);
        }
        return b.build();
    }

    /** The key, on the kinds topic, of the definition of {@code definedKind}: the kind followed by {@code /definition}. */
    public static String definitionKey(String definedKind) {
        return definedKind + DEFINITION_SUFFIX;
    }

    /** The kind a definition key names, or null when {@code key} is not a definition key. */
    public static String definedKindOf(String key) {
        return key.endsWith(DEFINITION_SUFFIX) ? key.substring(0, key.length() - DEFINITION_SUFFIX.length()) : null;
    }

    /**
     * The kind a CustomResourceDefinition's spec defines, as keys write it, or null when the spec names no valid
     * group and kind.
     */
    public static String definedKind(com.fasterxml.jackson.databind.JsonNode spec) {
        String group = spec.path("group").asText("");
        String name = spec.path("names").path("kind").asText("");
        if (group.isEmpty() || name.isEmpty()) {
            return null;
        }
        String kind = ResourceKey.qualifiedKind(name, group);
        return ResourceKey.isValidKind(kind) ? kind : null;
    }
}
