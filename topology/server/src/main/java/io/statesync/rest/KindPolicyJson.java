package io.statesync.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.HealthRule;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ValidationRule;
import io.statesync.avro.OrphanPolicy;
import io.statesync.topology.ResourceKey;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.RuleLimits;
import io.statesync.topology.PolicyCatalog;

/**
 * JSON/YAML form of a {@link KindPolicy}, as {@code /api/v1/kinds} reads and writes it; the seed file takes the same form.
 * Field names follow the Avro schema.
 */
public final class KindPolicyJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KindPolicyJson() {
    }

    /**
     * Parses and validates, compiling the CEL rules (a rule that does not compile throws with CEL's error);
     * {@code kindFromPath} wins over a kind field and must agree with it when both are given.
     */
    public static KindPolicy fromJson(JsonNode n, String kindFromPath) {
        return fromJson(n, kindFromPath, null);
    }

    /**
     * As {@link #fromJson(JsonNode, String)}, and the rules must keep {@code limits} (count and length before they
     * are compiled, estimated cost after); {@code limits} null checks none of them.
     */
    public static KindPolicy fromJson(JsonNode n, String kindFromPath, RuleLimits limits) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("a kind policy must be an object");
        }
        String kind = kindFromPath != null ? kindFromPath : text(n, "kind");
        if (kindFromPath != null && n.hasNonNull("kind") && !kindFromPath.equals(n.get("kind").asText())) {
            throw new IllegalArgumentException("kind in body (" + n.get("kind").asText() + ") differs from the path (" + kindFromPath + ")");
        }
        if (!ResourceKey.isValidKind(kind)) {
            throw new IllegalArgumentException("kind must match [A-Z][A-Za-z0-9]{0,62}, got " + kind);
        }
        KindPolicy.Builder b = KindPolicy.newBuilder().setKind(kind)
            .setIgnoredFields(strings(n, "ignoredFields")).setListMergeKeys(stringMap(n, "listMergeKeys"))
            .setOrphanPolicy(n.hasNonNull("orphanPolicy") ? OrphanPolicy.valueOf(n.get("orphanPolicy").asText().toUpperCase())
                : OrphanPolicy.REPORT)
            .setResyncPeriodMs(longOrNull(n, "resyncPeriodMs")).setCorrectionDeadlineMs(longOrNull(n, "correctionDeadlineMs"))
            .setBackoffBaseMs(longOrNull(n, "backoffBaseMs")).setBackoffCapMs(longOrNull(n, "backoffCapMs"))
            .setMaxAttempts(n.hasNonNull("maxAttempts") ? n.get("maxAttempts").asInt() : null)
            .setStalenessBoundMs(longOrNull(n, "stalenessBoundMs"))
            .setStrict(n.path("strict").asBoolean(false)).setStrictTyping(n.path("strictTyping").asBoolean(false))
            .setFinalizers(strings(n, "finalizers"))
            .setHealthRules(healthRules(n.path("healthRules")))
            .setValidationRules(validationRules(n.path("validationRules")))
            .setPlural(name(n, "plural")).setSingular(name(n, "singular")).setShortNames(strings(n, "shortNames"));
        for (String shortName : b.getShortNames()) {
            requireName("shortNames", shortName);
        }
        KindPolicy policy = b.build();
        if (limits != null) {
            limits.checkSources(policy.getHealthRules().stream().map(r -> r.getWhen()).toList(),
                policy.getValidationRules().stream().map(r -> r.getRule()).toList());
        }
        ReconcilePolicy compiled = PolicyCatalog.toReconcilePolicy(policy);
        if (limits != null) {
            limits.checkCost(compiled);
        }
        return policy;
    }

    public static ObjectNode toJson(KindPolicy p) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("kind", p.getKind());
        n.set("ignoredFields", MAPPER.valueToTree(p.getIgnoredFields()));
        n.set("listMergeKeys", MAPPER.valueToTree(p.getListMergeKeys()));
        n.put("orphanPolicy", p.getOrphanPolicy().name());
        n.set("resyncPeriodMs", MAPPER.valueToTree(p.getResyncPeriodMs()));
        n.set("correctionDeadlineMs", MAPPER.valueToTree(p.getCorrectionDeadlineMs()));
        n.set("backoffBaseMs", MAPPER.valueToTree(p.getBackoffBaseMs()));
        n.set("backoffCapMs", MAPPER.valueToTree(p.getBackoffCapMs()));
        n.set("maxAttempts", MAPPER.valueToTree(p.getMaxAttempts()));
        n.set("stalenessBoundMs", MAPPER.valueToTree(p.getStalenessBoundMs()));
        n.put("strict", p.getStrict());
        n.put("strictTyping", p.getStrictTyping());
        n.set("finalizers", MAPPER.valueToTree(p.getFinalizers()));
        n.put("plural", p.getPlural());
        n.put("singular", p.getSingular());
        n.set("shortNames", MAPPER.valueToTree(p.getShortNames()));
        ArrayNode health = n.putArray("healthRules");
        for (HealthRule r : p.getHealthRules()) {
            health.addObject().put("status", r.getStatus().name()).put("when", r.getWhen()).put("message", r.getMessage());
        }
        ArrayNode validation = n.putArray("validationRules");
        for (ValidationRule r : p.getValidationRules()) {
            validation.addObject().put("rule", r.getRule()).put("message", r.getMessage()).put("fieldPath", r.getFieldPath());
        }
        return n;
    }

    /** A Kubernetes resource name (plural, singular): lower-case letters and digits, null when absent. */
    private static String name(JsonNode n, String field) {
        String v = n.hasNonNull(field) ? n.get(field).asText() : null;
        if (v != null) {
            requireName(field, v);
        }
        return v;
    }

    private static void requireName(String field, String v) {
        if (!v.matches("[a-z][a-z0-9]{0,62}")) {
            throw new IllegalArgumentException(field + " must match [a-z][a-z0-9]{0,62}, got " + v);
        }
    }

    /** {@code [{status, when, message}]}; status is a HealthStatus name, when a CEL expression, message plain text. */
    private static List<HealthRule> healthRules(JsonNode list) {
        List<HealthRule> out = new ArrayList<>();
        int i = 0;
        for (JsonNode r : list) {
            String where = "healthRules[" + i++ + "]";
            requireFields(r, where, List.of("status", "when"), List.of("message"));
            HealthStatus status;
            try {
                status = HealthStatus.valueOf(r.get("status").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ".status must be one of " + List.of(HealthStatus.values())
                    + ", got " + r.get("status").asText());
            }
            out.add(new HealthRule(status, r.get("when").asText(), r.path("message").asText("")));
        }
        return out;
    }

    /** {@code [{rule, message, fieldPath}]}, as a CRD's x-kubernetes-validations. */
    private static List<ValidationRule> validationRules(JsonNode list) {
        List<ValidationRule> out = new ArrayList<>();
        int i = 0;
        for (JsonNode r : list) {
            requireFields(r, "validationRules[" + i++ + "]", List.of("rule"), List.of("message", "fieldPath"));
            out.add(new ValidationRule(r.get("rule").asText(), r.path("message").asText(""), r.path("fieldPath").asText("")));
        }
        return out;
    }

    private static void requireFields(JsonNode r, String where, List<String> required, List<String> optional) {
        if (!r.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        for (String f : required) {
            if (!r.path(f).isTextual()) {
                throw new IllegalArgumentException(where + "." + f + " must be a string");
            }
        }
        for (var e : r.properties()) {
            boolean known = required.contains(e.getKey()) || optional.contains(e.getKey());
            if (!known || !(e.getValue().isTextual() || e.getValue().isNull())) {
                throw new IllegalArgumentException(where + "." + e.getKey()
                    + (known ? " must be a string" : " is not a field; the fields are " + required + " and " + optional));
            }
        }
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    private static Long longOrNull(JsonNode n, String field) {
        if (!n.hasNonNull(field)) {
            return null;
        }
        if (!n.get(field).canConvertToLong()) {
            throw new IllegalArgumentException(field + " must be a whole number of milliseconds");
        }
        return n.get(field).asLong();
    }

    private static List<String> strings(JsonNode n, String field) {
        List<String> out = new ArrayList<>();
        n.path(field).forEach(e -> out.add(e.asText()));
        return out;
    }

    private static Map<String, String> stringMap(JsonNode n, String field) {
        Map<String, String> out = new LinkedHashMap<>();
        n.path(field).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
