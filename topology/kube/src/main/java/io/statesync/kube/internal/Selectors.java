package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import io.statesync.rest.ApiError;
import io.statesync.rest.LabelSelector;
import io.statesync.view.StoredResource;

/**
 * The list and watch filter of the Kubernetes API: the kind, the namespace (null for all), {@code labelSelector} and
 * {@code fieldSelector}. Field selectors take {@code metadata.name}, {@code metadata.namespace} and
 * {@code status.syncStatus} with {@code =}, {@code ==} and {@code !=}, as Kubernetes does for custom resources plus
 * the sync status, and a defined kind's {@code selectableFields}; every test but labels and selectable fields is on
 * the stored key and summary, without decoding the object.
 */
public final class Selectors {

    /** One field requirement. */
    record FieldRequirement(String field, boolean equal, String value) {
    }

    private Selectors() {
    }

    public static Predicate<StoredResource> filter(String kind, String namespace, String labelSelector, String fieldSelector) {
        return filter(kind, namespace, labelSelector, fieldSelector, null);
    }

    /** The filter of a served kind, whose definition's {@code selectableFields} field selectors may name too. */
    static Predicate<StoredResource> filter(KindCatalog.Served served, String namespace, String labelSelector,
                                            String fieldSelector) {
        return filter(served.kind().kind(), namespace, labelSelector, fieldSelector, served);
    }

    private static Predicate<StoredResource> filter(String kind, String namespace, String labelSelector,
                                                    String fieldSelector, KindCatalog.Served served) {
        LabelSelector labels;
        try {
            labels = LabelSelector.parse(labelSelector);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("unable to parse requirement: " + e.getMessage());
        }
        boolean anyLabels = !labels.requirements().isEmpty();
        Map<String, List<String>> selectable = served == null ? Map.of() : SelectableFields.of(served);
        java.util.Set<String> known = new java.util.HashSet<>(selectable.keySet());
        known.addAll(java.util.Set.of("metadata.name", "metadata.namespace", "status.syncStatus"));
        List<FieldRequirement> fields = fields(fieldSelector, known);
        Predicate<StoredResource> byFields = r -> fields.stream().allMatch(f -> f.equal() == f.value().equals(
            selectable.containsKey(f.field()) ? SelectableFields.value(r, served, selectable.get(f.field())) : value(r, f.field())));
        return r -> r.isKind(kind) && (namespace == null || r.isInNamespace(namespace))
            && (!anyLabels || labels.matches(r.hasLabels() ? r.resource().getMetadata().getLabels() : Map.of()))
            && byFields.test(r);
    }

    private static String value(StoredResource r, String field) {
        return switch (field) {
            case "metadata.name" -> segment(r.key(), 2);
            case "metadata.namespace" -> segment(r.key(), 1);
            default -> r.syncStatus().name();
        };
    }

    /** The {@code i}-th segment of a key {@code kind/namespace/name}. */
    static String segment(String key, int i) {
        int first = key.indexOf('/');
        int second = key.indexOf('/', first + 1);
        return i == 0 ? key.substring(0, first) : i == 1 ? key.substring(first + 1, second) : key.substring(second + 1);
    }

    /** Parses {@code a=b,c!=d}; a field outside {@code known} is 400, as Kubernetes answers an unsupported field label. */
    static List<FieldRequirement> fields(String selector, java.util.Set<String> known) {
        List<FieldRequirement> out = new ArrayList<>();
        if (selector == null || selector.isBlank()) {
            return out;
        }
        for (String term : selector.split(",")) {
            String t = term.trim();
            int ne = t.indexOf("!=");
            int eq = t.indexOf('=');
            if (t.isEmpty() || eq < 0) {
                throw ApiError.badRequest("invalid selector: '" + selector + "'; can't understand '" + t + "'");
            }
            boolean equal = ne < 0;
            String field = (equal ? t.substring(0, eq) : t.substring(0, ne)).trim();
            String value = (equal ? t.substring(t.startsWith("==", eq) ? eq + 2 : eq + 1) : t.substring(ne + 2)).trim();
            if (!known.contains(field)) {
                throw ApiError.badRequest("field label not supported: " + field);
            }
            out.add(new FieldRequirement(field, equal, value));
        }
        return out;
    }

    /** Field requirements with their own accessors, for objects that are not stored resources (events). */
    public static <T> Predicate<T> fields(String selector, Map<String, Function<T, String>> accessors) {
        List<FieldRequirement> fields = fields(selector, accessors.keySet());
        return o -> fields.stream().allMatch(f -> f.equal() == f.value().equals(accessors.get(f.field()).apply(o)));
    }
}
