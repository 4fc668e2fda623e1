package io.statesync.topology;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ManagedFieldsEntry;
import io.statesync.avro.ManagedFieldsOperation;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.Resource;
import io.statesync.reconciler.FieldPath;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.Trees;
import io.statesync.reconciler.fields.FieldManager;
import io.statesync.reconciler.fields.FieldsV1;
import io.statesync.reconciler.fields.ListShape;
import io.statesync.reconciler.fields.ListShapes;
import io.statesync.reconciler.fields.ListType;
import io.statesync.reconciler.fields.Operation;
import io.statesync.topology.internal.AvroMapping;

/**
 * The managed fields of a write, as Kubernetes keeps them (metadata.managedFields): which field manager set which
 * fields of the object's editable part, {@code {metadata: {labels, annotations, finalizers, ownerReferences}, spec}}.
 * Admission runs it in the key's task, so a server-side apply merges against the stored object with no race. The
 * rules themselves are the reconciler's {@link FieldManager}; this class maps the stored object and the write to its
 * trees and back, and renders the entries in Kubernetes' JSON shape.
 */
public final class ManagedFields {

    /**
     * The manager of a write that names none (a record a producer wrote straight to the desired topic) on an object
     * that has managed fields: it takes the fields it changes, so that an applier sees the change as another
     * manager's and a later apply of a different value conflicts instead of silently reverting it.
     */
    public static final String TOPIC_MANAGER = "statesync-desired-topic";
    /** Kubernetes' bound on a field manager's name. */
    public static final int MAX_MANAGER_BYTES = 128;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> FINALIZERS = List.of("metadata", "finalizers");
    private static final List<String> OWNER_REFERENCES = List.of("metadata", "ownerReferences");

    private ManagedFields() {
    }

    /**
     * How the lists of a kind's objects merge: finalizers are a set and owner references a map list by uid, as in
     * Kubernetes' ObjectMeta; a spec list is as the schema of the kind's CustomResourceDefinition declares it
     * ({@code x-kubernetes-list-type}), or else a map list by the kind's {@code listMergeKeys}, and otherwise atomic.
     */
    public static ListShapes shapes(ReconcilePolicy policy) {
        ListShapes declared = policy.definition().schema() == null ? null : policy.definition().schema().listShapes();
        Map<List<String>, String> byPath = new LinkedHashMap<>();
        policy.listMergeKeys().forEach((path, key) -> {
            List<String> full = new ArrayList<>();
            full.add("spec");
            full.addAll(FieldPath.parse(path).segments());
            byPath.put(List.copyOf(full), key);
        });
        return names -> {
            if (names.equals(FINALIZERS)) {
                return new ListShape(ListType.SET, List.of());
            }
            if (names.equals(OWNER_REFERENCES)) {
                return new ListShape(ListType.MAP, List.of("uid"));
            }
            if (declared != null) {
                return declared.at(names);
            }
            String key = byPath.get(names);
            if (key == null) {
                key = wildcardKey(byPath, names);
            }
            return key == null ? ListShape.ATOMIC : new ListShape(ListType.MAP, List.of(key));
        };
    }

    private static String wildcardKey(Map<List<String>, String> byPath, List<String> names) {
        for (Map.Entry<List<String>, String> e : byPath.entrySet()) {
            List<String> p = e.getKey();
            if (p.size() != names.size()) {
                continue;
            }
            boolean match = true;
            for (int i = 0; i < p.size() && match; i++) {
                match = p.get(i).equals(FieldPath.WILDCARD) || p.get(i).equals(names.get(i));
            }
            if (match) {
                return e.getValue();
            }
        }
        return null;
    }

    /** The editable part of a stored object as a tree; empty metadata fields are left out, as Kubernetes' JSON omits them. */
    public static Object tree(Resource r) {
        ObjectMeta m = r.getMetadata();
        return tree(m.getLabels(), m.getAnnotations(), m.getFinalizers(), m.getOwnerReferences(), AvroMapping.frozenTree(r.getSpec()));
    }

    /** The editable part of a write as a tree. */
    public static Object tree(DesiredState d) {
        return tree(d.getLabels(), d.getAnnotations(), d.getFinalizers(), d.getOwnerReferences(), AvroMapping.frozenTree(d.getSpec()));
    }

    private static Object tree(Map<String, String> labels, Map<String, String> annotations, List<String> finalizers,
                               List<OwnerReference> refs, Object spec) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (!labels.isEmpty()) {
            meta.put("labels", new LinkedHashMap<>(labels));
        }
        if (!annotations.isEmpty()) {
            meta.put("annotations", new LinkedHashMap<>(annotations));
        }
        if (!finalizers.isEmpty()) {
            meta.put("finalizers", new ArrayList<>(finalizers));
        }
        if (!refs.isEmpty()) {
            meta.put("ownerReferences", MAPPER.convertValue(WriteAdmission.ownerReferencesJson(refs), List.class));
        }
        Map<String, Object> root = new LinkedHashMap<>();
        if (!meta.isEmpty()) {
            root.put("metadata", meta);
        }
        if (spec != null) {
            root.put("spec", spec);
        }
        return Trees.normalize(root);
    }

    /** A JSON document as a tree. */
    public static Object tree(JsonNode document) {
        return Trees.normalize(MAPPER.convertValue(document, Object.class));
    }

    /** The reconciler's entries of stored ones. A stored entry whose fields do not decode is dropped. */
    public static List<io.statesync.reconciler.fields.ManagedFieldsEntry> decode(List<ManagedFieldsEntry> stored) {
        List<io.statesync.reconciler.fields.ManagedFieldsEntry> out = new ArrayList<>(stored.size());
        for (ManagedFieldsEntry e : stored) {
            try {
                out.add(new io.statesync.reconciler.fields.ManagedFieldsEntry(e.getManager(),
                    e.getOperation() == ManagedFieldsOperation.Apply ? Operation.Apply : Operation.Update,
                    e.getApiVersion(), e.getTime(), FieldsV1.decode(e.getFieldsV1())));
            } catch (IllegalArgumentException malformed) {
                // Written by this class, so only a hand-made record gets here; its claim on fields is void.
            }
        }
        return out;
    }

    /** The entries to store, in Kubernetes' order. */
    public static List<ManagedFieldsEntry> encode(List<io.statesync.reconciler.fields.ManagedFieldsEntry> entries) {
        List<ManagedFieldsEntry> out = new ArrayList<>(entries.size());
        for (var e : FieldManager.sorted(entries)) {
            out.add(new ManagedFieldsEntry(e.manager(),
                e.operation() == Operation.Apply ? ManagedFieldsOperation.Apply : ManagedFieldsOperation.Update,
                e.apiVersion(), e.time() == null ? null : e.time().truncatedTo(ChronoUnit.SECONDS), FieldsV1.encode(e.fields())));
        }
        return out;
    }

    /**
     * Whether two lists hold the same entries in the same order. Field by field: Avro's record equality cannot
     * compare the optional time.
     */
    public static boolean same(List<ManagedFieldsEntry> a, List<ManagedFieldsEntry> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            ManagedFieldsEntry x = a.get(i);
            ManagedFieldsEntry y = b.get(i);
            if (!x.getManager().equals(y.getManager()) || x.getOperation() != y.getOperation()
                || !x.getApiVersion().equals(y.getApiVersion()) || !java.util.Objects.equals(x.getTime(), y.getTime())
                || !x.getFieldsV1().equals(y.getFieldsV1())) {
                return false;
            }
        }
        return true;
    }

    /** The entries in Kubernetes' JSON shape ({@code fieldsV1} an object, {@code time} RFC 3339 in seconds). */
    public static ArrayNode toJson(List<ManagedFieldsEntry> entries) {
        ArrayNode out = MAPPER.createArrayNode();
        for (ManagedFieldsEntry e : entries) {
            ObjectNode n = out.addObject().put("manager", e.getManager()).put("operation", e.getOperation().name())
                .put("apiVersion", e.getApiVersion());
            if (e.getTime() != null) {
                n.put("time", e.getTime().truncatedTo(ChronoUnit.SECONDS).toString());
            }
            n.put("fieldsType", "FieldsV1");
            try {
                n.set("fieldsV1", MAPPER.readTree(e.getFieldsV1()));
            } catch (JsonProcessingException malformed) {
                n.putObject("fieldsV1");
            }
        }
        return out;
    }

    /**
     * The managed fields a writer sends in Kubernetes' JSON shape, as Kubernetes reads them: {@code [{}]} resets them
     * (an empty list); absent, empty or malformed keeps the stored ones (null), so that a client that does not know
     * them cannot drop them by accident.
     */
    public static List<ManagedFieldsEntry> fromJson(JsonNode n) {
        if (n == null || !n.isArray() || n.isEmpty()) {
            return null;
        }
        if (n.size() == 1 && n.get(0).isObject() && n.get(0).isEmpty()) {
            return List.of();
        }
        List<ManagedFieldsEntry> out = new ArrayList<>(n.size());
        for (JsonNode item : n) {
            ManagedFieldsEntry e = entry(item);
            if (e == null) {
                return null;
            }
            out.add(e);
        }
        return out;
    }

    private static ManagedFieldsEntry entry(JsonNode item) {
        if (!item.isObject() || !item.path("manager").isTextual() || !item.path("fieldsV1").isObject()) {
            return null;
        }
        String op = item.path("operation").asText("");
        if (!op.equals("Apply") && !op.equals("Update")) {
            return null;
        }
        String fields = item.get("fieldsV1").toString();
        Instant time;
        try {
            FieldsV1.decode(fields);
            time = item.hasNonNull("time") ? Instant.parse(item.get("time").asText()) : null;
        } catch (RuntimeException malformed) {
            return null;
        }
        return new ManagedFieldsEntry(item.get("manager").asText(), ManagedFieldsOperation.valueOf(op),
            item.path("apiVersion").asText(""), time, fields);
    }
}
