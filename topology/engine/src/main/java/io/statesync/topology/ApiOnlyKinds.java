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
    private static final String DEFINITION_SUFFIX = "/definition";

    private ApiOnlyKinds() {
    }

    public static boolean contains(String kind) {
        return KINDS.contains(kind);
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
