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

    private static final Set<String> KINDS = Set.of(CUSTOM_RESOURCE_DEFINITION, NAMESPACE);

    private ApiOnlyKinds() {
    }

    public static boolean contains(String kind) {
        return KINDS.contains(kind);
    }
}
