package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.reconciler.schema.InvalidSchemaException;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.rest.ApiError;
import io.statesync.schemas.Values;
import io.statesync.topology.ResourceKey;

/**
 * What the apiserver's CustomResourceDefinition strategy checks of a definition, and the status it reports. A
 * definition is refused (422 Invalid, one cause per field, with Kubernetes' messages) when its names, scope or versions
 * are malformed, or when its kind or names are already taken in its group by another definition: Kubernetes accepts
 * such a definition and reports {@code NamesAccepted=False}, but a refusal tells the writer at once and keeps one
 * meaning per name. Accepted definitions are established at once, since nothing here needs to start for a kind.
 */
final class CustomResourceDefinitions {

    private static final Set<String> SCOPES = Set.of("Namespaced", "Cluster");
    /** Groups a definition may not take: their kinds are statesync's own or Kubernetes' built-in ones. */
    private static final Set<String> RESERVED_GROUPS = Set.of(KindCatalog.CRD_GROUP, ResourceKey.CORE_GROUP_ALIAS, "");

    private CustomResourceDefinitions() {
    }

    /**
     * Refuses {@code object} (the definition in the server's form) named {@code name}, checked against the kinds
     * {@code served} already, its own earlier version left out.
     */
    static void validate(ObjectNode object, String name, List<KindCatalog.Kind> served, StructuralSchema.Limits limits) {
        List<ApiError.Cause> causes = new ArrayList<>();
        JsonNode spec = object.path("spec");
        String group = spec.path("group").asText("");
        JsonNode names = spec.path("names");
        String plural = names.path("plural").asText("");
        String kind = names.path("kind").asText("");
        required(causes, group, "spec.group");
        required(causes, plural, "spec.names.plural");
        required(causes, kind, "spec.names.kind");
        if (!group.isEmpty() && (RESERVED_GROUPS.contains(group) || !ResourceKey.isSubdomain(group))) {
            causes.add(invalid("spec.group", group, RESERVED_GROUPS.contains(group) ? "the group is reserved"
                : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'"));
        }
        if (!kind.isEmpty() && !ResourceKey.isValidKind(kind)) {
            causes.add(invalid("spec.names.kind", kind, "must start with an upper-case letter and hold only letters and digits"));
        }
        if (!plural.isEmpty() && !ResourceKey.isSubdomain(plural) || plural.contains(".")) {
            causes.add(invalid("spec.names.plural", plural, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'"));
        }
        if (!plural.isEmpty() && !group.isEmpty() && !name.equals(plural + "." + group)) {
            causes.add(invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
        }
        String scope = spec.path("scope").asText("");
        if (!SCOPES.contains(scope)) {
            causes.add(scope.isEmpty() ? new ApiError.Cause("FieldValueRequired", "Required value", "spec.scope")
                : new ApiError.Cause("FieldValueNotSupported", "Unsupported value: \"" + scope
                + "\": supported values: \"Cluster\", \"Namespaced\"", "spec.scope"));
        }
        versions(causes, spec.path("versions"), limits);
        if (causes.isEmpty()) {
            clashes(causes, group, names, name, served);
        }
        if (!causes.isEmpty()) {
            throw ApiError.invalid("CustomResourceDefinition.apiextensions.k8s.io \"" + name + "\" is invalid: "
                + summary(causes), causes);
        }
    }

    private static void versions(List<ApiError.Cause> causes, JsonNode versions, StructuralSchema.Limits limits) {
        if (!versions.isArray() || versions.isEmpty()) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: \"null\": must have exactly one version"
                + " marked as storage version", "spec.versions"));
            return;
        }
        int storage = 0;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < versions.size(); i++) {
            JsonNode v = versions.get(i);
            String versionName = v.path("name").asText("");
            if (versionName.isEmpty() || !versionName.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
                causes.add(invalid("spec.versions[" + i + "].name", versionName, "a DNS-1035 label must consist of lower"
                    + " case alphanumeric characters or '-'"));
            } else if (!seen.add(versionName)) {
                causes.add(new ApiError.Cause("FieldValueDuplicate", "Duplicate value: \"" + versionName + "\"",
                    "spec.versions[" + i + "].name"));
            }
            if (v.path("storage").asBoolean(false)) {
                storage++;
            }
            schema(causes, v.path("schema").path("openAPIV3Schema"), "spec.versions[" + i + "].schema.openAPIV3Schema", limits);
            SelectableFields.validate(causes, v, "spec.versions[" + i + "]");
        }
        if (storage != 1) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + versionList(versions)
                + ": must have exactly one version marked as storage version", "spec.versions"));
        }
    }

    /** A version's schema must compile as a structural schema within the bounds every write of the kind is held to. */
    @SuppressWarnings("unchecked")
    private static void schema(List<ApiError.Cause> causes, JsonNode schema, String at, StructuralSchema.Limits limits) {
        if (!schema.isObject()) {
            return;
        }
        try {
            StructuralSchema.compile((java.util.Map<String, Object>) Values.toJava(Values.fromJson(schema)), at, limits);
        } catch (InvalidSchemaException e) {
            e.errors().forEach(f -> causes.add(new ApiError.Cause(f.reason(), f.message(), f.field())));
        }
    }

    /** Another definition in the group that already serves the kind, or one of the names, refuses this one. */
    private static void clashes(List<ApiError.Cause> causes, String group, JsonNode names, String name,
                                List<KindCatalog.Kind> served) {
        for (KindCatalog.Kind other : served) {
            if (!other.group().equals(group) || other.definition() == null || name.equals(other.qualifiedPlural())) {
                continue;
            }
            String kind = names.path("kind").asText();
            if (other.kindName().equals(kind)) {
                causes.add(invalid("spec.names.kind", kind, "is already in use by " + other.qualifiedPlural()));
            }
            Set<String> taken = new HashSet<>(other.shortNames());
            taken.add(other.plural());
            taken.add(other.singular());
            for (String field : new String[] {"plural", "singular"}) {
                String n = names.path(field).asText("");
                if (!n.isEmpty() && taken.contains(n)) {
                    causes.add(invalid("spec.names." + field, n, "is already in use by " + other.qualifiedPlural()));
                }
            }
            for (JsonNode s : names.path("shortNames")) {
                if (taken.contains(s.asText())) {
                    causes.add(invalid("spec.names.shortNames", s.asText(), "is already in use by " + other.qualifiedPlural()));
                }
            }
        }
    }

    /**
     * The status Kubernetes reports of an established definition: its names accepted (with the defaults it fills
     * in), {@code NamesAccepted} and {@code Established} true since it was created, {@code Terminating} true while
     * the objects of a deleted definition are deleted, and the stored version.
     */
    static void putStatus(ObjectNode object) {
        JsonNode spec = object.path("spec");
        String since = object.path("metadata").path("creationTimestamp").asText("");
        ObjectNode status = object.putObject("status");
        ObjectNode accepted = spec.path("names") instanceof ObjectNode n ? n.deepCopy() : status.objectNode();
        String kind = accepted.path("kind").asText("");
        if (!accepted.hasNonNull("singular")) {
            accepted.put("singular", kind.toLowerCase(java.util.Locale.ROOT));
        }
        if (!accepted.hasNonNull("listKind")) {
            accepted.put("listKind", kind + "List");
        }
        status.set("acceptedNames", accepted);
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "NamesAccepted").put("status", "True").put("lastTransitionTime", since)
            .put("reason", "NoConflicts").put("message", "no conflicts found");
        conditions.addObject().put("type", "Established").put("status", "True").put("lastTransitionTime", since)
            .put("reason", "InitialNamesAccepted").put("message", "the initial names have been accepted");
        String deleted = object.path("metadata").path("deletionTimestamp").asText("");
        if (!deleted.isEmpty()) {
            conditions.addObject().put("type", "Terminating").put("status", "True").put("lastTransitionTime", deleted)
                .put("reason", "InstanceDeletionInProgress").put("message", "CustomResource deletion is in progress");
        }
        ArrayNode stored = status.putArray("storedVersions");
        for (JsonNode v : spec.path("versions")) {
            if (v.path("storage").asBoolean(false)) {
                stored.add(v.path("name").asText());
            }
        }
    }

    private static void required(List<ApiError.Cause> causes, String value, String field) {
        if (value.isEmpty()) {
            causes.add(new ApiError.Cause("FieldValueRequired", "Required value", field));
        }
    }

    private static ApiError.Cause invalid(String field, String value, String detail) {
        return new ApiError.Cause("FieldValueInvalid", "Invalid value: \"" + value + "\": " + detail, field);
    }

    private static String versionList(JsonNode versions) {
        List<String> out = new ArrayList<>();
        versions.forEach(v -> out.add(v.path("name").asText()));
        return "[]apiextensions.CustomResourceDefinitionVersion" + out;
    }

    /** Kubernetes' aggregate message: one error as {@code field: message}, several in brackets. */
    static String summary(List<ApiError.Cause> causes) {
        List<String> parts = new ArrayList<>();
        causes.forEach(c -> parts.add(c.field() + ": " + c.message()));
        return parts.size() == 1 ? parts.get(0) : "[" + String.join(", ", parts) + "]";
    }
}
