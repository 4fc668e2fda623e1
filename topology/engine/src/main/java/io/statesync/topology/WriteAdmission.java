package io.statesync.topology;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventCause;
import io.statesync.avro.EventType;
import io.statesync.avro.ManagedFieldsEntry;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.PatchType;
import io.statesync.avro.Resource;
import io.statesync.avro.WritePatch;
import io.statesync.reconciler.AdmissionOutcome;
import io.statesync.reconciler.GenerationRules;
import io.statesync.reconciler.IncomingSpec;
import io.statesync.reconciler.OwnerCollector;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.StoredSpec;
import io.statesync.reconciler.fields.ApplyConflictException;
import io.statesync.reconciler.fields.Conflict;
import io.statesync.reconciler.fields.FieldManager;
import io.statesync.schemas.Values;
import io.statesync.config.AppConfig;
import io.statesync.topology.internal.AvroMapping;
import io.statesync.gc.OwnerReferences;
import io.statesync.serde.EncodedSize;
import io.statesync.topology.internal.JsonPatches;
import io.statesync.topology.internal.StrategicMergePatch;

/**
 * The admission rules of one write against the stored object, with no state of their own: the compare-and-swap
 * precondition, create-only, the server-side patch, and the generation rules. Admission runs them per key in the
 * owning task; a dry run runs the same rules against the owner's copy and stores nothing.
 */
public final class WriteAdmission {

    /** The event reasons of a refused write, which the REST API maps to its status codes. */
    public static final String RESOURCE_VERSION_MISMATCH = "ResourceVersionMismatch";
    public static final String ALREADY_EXISTS = "AlreadyExists";
    public static final String NOT_FOUND = "NotFound";
    /** A well-formed patch that does not apply to the stored object: a failing test, a path that is not there. */
    public static final String PATCH_NOT_APPLICABLE = "PatchNotApplicable";
    public static final String INVALID = "Invalid";
    /** A spec that breaks one of the kind's validation rules; the message lists every failure. */
    public static final String VALIDATION_FAILED = "ValidationFailed";
    /**
     * A patch refused for what it would cost: more operations than patch.max.operations, or a result past
     * spec.max.bytes or spec.max.depth (checked while it applies, before it can allocate past them).
     */
    public static final String PATCH_TOO_LARGE = "PatchTooLarge";
    /**
     * A write whose outputs (the Resource, the key's state record, its corrections) could pass the largest record
     * the topics take ({@link OutputLimits}), although the write itself is within spec.max.bytes: its fields' paths
     * repeat in every field's diff and correction. The REST API answers 413.
     */
    public static final String OUTPUT_TOO_LARGE = "OutputTooLarge";
    /**
     * The kind's policy is stored but does not decode (the registry is out, or the record is not a policy), so the
     * write cannot be checked against its rules; the REST API answers 503, and the write may be sent again.
     */
    public static final String POLICY_UNAVAILABLE = "PolicyUnavailable";
    /** A server-side apply that would change fields other managers own; each is a cause of the refusal. */
    public static final String FIELD_MANAGER_CONFLICT = "FieldManagerConflict";
    /** metadata.ownerReferences break Kubernetes' rules (a required field, more than one controller). */
    public static final String INVALID_OWNER_REFERENCES = "InvalidOwnerReferences";
    /** The write breaks the schema of the kind's CustomResourceDefinition; the event's causes name each field. */
    public static final String SCHEMA_VIOLATION = "SchemaViolation";

    /** The apiVersion a reference gets when it names none: the only one statesync serves. */
    private static final String OWNER_API_VERSION = "statesync.io/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> PATCHABLE_METADATA = Set.of("labels", "annotations", "finalizers", "ownerReferences", "managedFields");

    private WriteAdmission() {
    }

    /**
     * The bounds of a write's result, which a patch could otherwise grow past what a desired record may carry:
     * {@code spec.max.bytes} (the record as stored on the desired topic), {@code spec.max.depth} and
     * {@code patch.max.operations}.
     */
    public record Limits(int maxBytes, int maxDepth, int maxPatchOperations) {

        /** The configuration's defaults, for callers that hold no configuration. */
        public static final Limits DEFAULTS = of(new AppConfig(Map.of()));

        public static Limits of(AppConfig config) {
            return new Limits(config.getInt(AppConfig.SPEC_MAX_BYTES), config.getInt(AppConfig.SPEC_MAX_DEPTH),
                config.getInt(AppConfig.PATCH_MAX_OPERATIONS));
        }

        /**
         * What a JSON patch may spend while it applies: twice the record limit in estimated bytes, because the estimate
         * is near but not equal to the stored encoding, and the exact check follows on the result; the patched object
         * wraps the spec in one more level.
         */
        JsonPatches.Limits whileApplying() {
            return new JsonPatches.Limits(2L * maxBytes, maxDepth + 1, maxPatchOperations);
        }
    }

    /** The answer: accepted with the write as it will be stored, or refused with an event type and reason. */
    public sealed interface Decision permits Accepted, Refused {
    }

    /** {@code effective} is the request with any patch applied, so its labels, annotations, finalizers and spec are final. */
    public record Accepted(DesiredState effective, AdmissionOutcome outcome) implements Decision {
    }

    /** {@code causes} name the fields of a refusal field by field (an apply's conflicts), else empty. */
    public record Refused(EventType type, String reason, String message, List<EventCause> causes) implements Decision {
        public Refused(EventType type, String reason, String message) {
            this(type, reason, message, List.of());
        }
    }

    /**
     * Decides a desired write. {@code current} is the stored resource, or null when there is none (an orphan
     * placeholder counts as none).
     */
    public static Decision decide(Resource current, DesiredState request, ReconcilePolicy policy) {
        return decide(current, request, policy, Limits.DEFAULTS);
    }

    /** As {@link #decide(Resource, DesiredState, ReconcilePolicy)}, with the configured bounds of a patch's result. */
    public static Decision decide(Resource current, DesiredState request, ReconcilePolicy policy, Limits limits) {
        return decide(current, request, policy, limits, System.currentTimeMillis());
    }

    /** As {@link #decide(Resource, DesiredState, ReconcilePolicy, Limits)} at {@code now}, the time of managed fields. */
    public static Decision decide(Resource current, DesiredState request, ReconcilePolicy policy, Limits limits, long now) {
        Refused precondition = precondition(current, request.getExpectedResourceVersion());
        if (precondition != null) {
            return precondition;
        }
        if (request.getCreateOnly() && current != null) {
            return new Refused(EventType.Conflict, ALREADY_EXISTS, key(request) + " already exists");
        }
        DesiredState effective = request;
        boolean apply = request.getPatch() != null && request.getPatch().getType() == PatchType.Apply;
        if (apply) {
            try {
                effective = applied(current, request, policy, limits, now);
            } catch (ApplyConflictException e) {
                return conflicts(e);
            } catch (JsonPatches.TooLarge e) {
                return new Refused(EventType.Invalid, PATCH_TOO_LARGE, e.getMessage());
            } catch (JsonPatches.PatchException e) {
                return new Refused(EventType.Invalid, e.malformed() ? INVALID : PATCH_NOT_APPLICABLE, e.getMessage());
            }
        } else if (request.getPatch() != null) {
            if (current == null) {
                return new Refused(EventType.Invalid, NOT_FOUND, key(request) + " does not exist, so it cannot be patched");
            }
            try {
                effective = patched(current, request, limits);
            } catch (JsonPatches.TooLarge e) {
                return new Refused(EventType.Invalid, PATCH_TOO_LARGE, e.getMessage());
            } catch (JsonPatches.PatchException e) {
                return new Refused(EventType.Invalid, e.malformed() ? INVALID : PATCH_NOT_APPLICABLE, e.getMessage());
            }
        }
        Schemas.Outcome schema = Schemas.admit(policy.definition(), request.getApiVersion(), effective, current);
        if (schema.refused() != null) {
            return schema.refused();
        }
        effective = ApiOnlyKinds.withApiFinalizer(current, schema.effective());
        List<String> badRefs = OwnerCollector.validate(OwnerReferences.toReconciler(effective.getOwnerReferences()));
        if (!badRefs.isEmpty()) {
            return new Refused(EventType.Invalid, INVALID_OWNER_REFERENCES, String.join("; ", badRefs));
        }
        if (!apply) {
            try {
                effective = updated(current, effective, policy, limits, now);
            } catch (JsonPatches.TooLarge e) {
                return new Refused(EventType.Invalid, PATCH_TOO_LARGE, e.getMessage());
            }
        }
        IncomingSpec incoming = new IncomingSpec(AvroMapping.frozenTree(effective.getSpec()), effective.getLabels(),
            effective.getAnnotations(), effective.getFinalizers());
        StoredSpec stored = current == null ? null : storedSpec(current);
        AdmissionOutcome outcome = withOwnerChanges(GenerationRules.admit(stored, incoming, policy.strictTyping()),
            current, effective);
        if (current != null && current.getMetadata().getDeletionTimestamp() != null
            && outcome instanceof AdmissionOutcome.SpecChanged) {
            return new Refused(EventType.Invalid, INVALID, "the resource is being deleted; only its metadata (finalizers) may change");
        }
        Refused invalid = validate(policy, incoming, stored, outcome);
        return invalid != null ? invalid : new Accepted(effective, outcome);
    }

    /**
     * The kind's validation rules on a spec that changes (a create or a new generation; an unchanged spec passed them
     * when it was written, and a later rule must not block a metadata edit): self is the new spec, oldSelf the stored
     * one, so transition rules run on updates only.
     */
    private static Refused validate(ReconcilePolicy policy, IncomingSpec incoming, StoredSpec stored, AdmissionOutcome outcome) {
        if (policy.validationRules().isEmpty()
            || !(outcome instanceof AdmissionOutcome.Created || outcome instanceof AdmissionOutcome.SpecChanged)) {
            return null;
        }
        List<String> failures = policy.validationRules().validate(incoming.spec(), stored == null ? null : stored.spec(),
            stored != null);
        return failures.isEmpty() ? null : new Refused(EventType.Invalid, VALIDATION_FAILED, String.join("; ", failures));
    }

    /**
     * A write that only changes the owner references or the managed fields (a second manager applying the same values)
     * changes the metadata, and keeps the generation.
     */
    private static AdmissionOutcome withOwnerChanges(AdmissionOutcome outcome, Resource current, DesiredState effective) {
        if (outcome instanceof AdmissionOutcome.NoOp
            && (!current.getMetadata().getOwnerReferences().equals(effective.getOwnerReferences())
                || effective.getManagedFields() != null
                    && !ManagedFields.same(current.getMetadata().getManagedFields(), effective.getManagedFields()))) {
            return new AdmissionOutcome.MetadataChanged(outcome.generation());
        }
        return outcome;
    }

    /** Decides a delete: the precondition, then whether there is anything to delete. Null means accepted. */
    public static Refused decideDelete(Resource current, String key, String expectedResourceVersion) {
        Refused precondition = precondition(current, expectedResourceVersion);
        if (precondition != null) {
            return precondition;
        }
        return current == null ? new Refused(EventType.Invalid, NOT_FOUND, key + " does not exist") : null;
    }

    private static Refused precondition(Resource current, String expected) {
        String currentVersion = current == null ? "" : current.getMetadata().getResourceVersion();
        if (expected == null || expected.isEmpty() || expected.equals(currentVersion)) {
            return null;
        }
        return new Refused(EventType.Conflict, RESOURCE_VERSION_MISMATCH, "expected resourceVersion " + expected
            + " but the current one is " + (current == null ? "(none: the resource does not exist)" : currentVersion));
    }

    /** The part of a stored object a patch may change, in the shape the REST API shows it. */
    public static ObjectNode editable(Resource r) {
        ObjectNode n = MAPPER.createObjectNode();
        ObjectNode meta = n.putObject("metadata");
        ObjectMeta m = r.getMetadata();
        meta.set("labels", MAPPER.valueToTree(m.getLabels()));
        meta.set("annotations", MAPPER.valueToTree(m.getAnnotations()));
        meta.set("finalizers", MAPPER.valueToTree(m.getFinalizers()));
        meta.set("ownerReferences", ownerReferencesJson(m.getOwnerReferences()));
        if (!m.getManagedFields().isEmpty()) {
            meta.set("managedFields", ManagedFields.toJson(m.getManagedFields()));
        }
        n.set("spec", Values.toJson(r.getSpec()));
        return n;
    }

    /**
     * The stored resource after an accepted write, with the previous resourceVersion still in it (admission assigns
     * the next). Built with the all-args constructors: the generated copy builder would deep-copy the old metadata first. Kind,
     * namespace and name are the key's (admission checked that the record's identity is its key), so the old
     * metadata's strings are kept: the state then holds one instance of each for the key's life, which young
     * collections do not copy again (see ReconcileEngine's shareWithState).
     */
    public static Resource admitted(Resource current, Accepted accepted, long now) {
        DesiredState d = accepted.effective();
        AdmissionOutcome outcome = accepted.outcome();
        ObjectMeta old = current == null ? null : current.getMetadata();
        ObjectMeta meta = new ObjectMeta(old == null ? d.getKind() : old.getKind(),
            old == null ? d.getNamespace() : old.getNamespace(), old == null ? d.getName() : old.getName(),
            old == null ? UUID.randomUUID().toString() : old.getUid(), old == null ? "" : old.getResourceVersion(),
            outcome.generation(), old == null ? Instant.ofEpochMilli(now) : old.getCreationTimestamp(),
            old == null ? null : old.getDeletionTimestamp(), Map.copyOf(d.getLabels()), Map.copyOf(d.getAnnotations()),
            List.copyOf(d.getFinalizers()), List.copyOf(d.getOwnerReferences()),
            d.getManagedFields() != null ? List.copyOf(d.getManagedFields()) : old == null ? List.of() : old.getManagedFields());
        return new Resource(meta, d.getSpec(),
            current == null ? AvroMapping.initialStatus(Instant.ofEpochMilli(now)) : current.getStatus());
    }

    private static DesiredState patched(Resource current, DesiredState request, Limits limits) {
        WritePatch patch = request.getPatch();
        JsonNode document;
        try {
            document = MAPPER.readTree(patch.getDocument());
        } catch (JsonProcessingException e) {
            throw new JsonPatches.PatchException(true, "the patch is not JSON: " + e.getOriginalMessage());
        }
        JsonNode after = switch (patch.getType()) {
            case JsonPatch -> JsonPatches.jsonPatch(editable(current), document, limits.whileApplying());
            case StrategicMergePatch -> StrategicMergePatch.apply(editable(current), requireObject(document));
            default -> JsonPatches.mergePatch(editable(current), requireObject(document));
        };
        if (!after.isObject()) {
            throw new JsonPatches.PatchException(false, "the patched object must stay a JSON object");
        }
        DesiredState effective = fromEditable(request, after, limits);
        if (after.path("metadata").has("managedFields")) {
            effective.setManagedFields(ManagedFields.fromJson(after.path("metadata").get("managedFields")));
        }
        requireWithinBytes(effective, limits.maxBytes());
        return effective;
    }

    /**
     * The write whose editable part is {@code after}: metadata's labels, annotations, finalizers, owner references, and
     * spec. The caller checks its bytes once it has its managed fields too.
     */
    private static DesiredState fromEditable(DesiredState request, JsonNode after, Limits limits) {
        JsonNode meta = after.path("metadata");
        for (var it = meta.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!PATCHABLE_METADATA.contains(f)) {
                throw new JsonPatches.PatchException(false, "metadata." + f + " cannot be patched; only labels, annotations,"
                    + " finalizers, ownerReferences and managedFields can");
            }
        }
        requireWithinDepth(after.get("spec"), limits.maxDepth());
        DesiredState effective;
        try {
            effective = DesiredState.newBuilder(request).setPatch(null).setLabels(strings(meta.get("labels"), "labels"))
                .setAnnotations(strings(meta.get("annotations"), "annotations"))
                .setFinalizers(list(meta.get("finalizers"))).setOwnerReferences(ownerReferences(meta.get("ownerReferences")))
                .setSpec(Values.fromJson(after.get("spec"))).build();
        } catch (IllegalArgumentException e) {
            throw new JsonPatches.PatchException(false, e.getMessage());
        }
        return effective;
    }

    /**
     * Server-side apply: the manager's configuration merged into the stored object (or, with none, creating it) by the
     * rules of {@link FieldManager#apply}; fields it applied before and leaves out now are removed unless another
     * manager owns them. A changed value on a field another manager owns is a conflict unless forced.
     */
    private static DesiredState applied(Resource current, DesiredState request, ReconcilePolicy policy, Limits limits, long now) {
        if (request.getFieldManager() == null || request.getFieldManager().isEmpty()) {
            throw new JsonPatches.PatchException(true, "fieldManager: Required value: is required for apply patch");
        }
        JsonNode config;
        try {
            config = MAPPER.readTree(request.getPatch().getDocument());
        } catch (JsonProcessingException e) {
            throw new JsonPatches.PatchException(true, "the applied configuration is not JSON: " + e.getOriginalMessage());
        }
        if (!config.isObject() || !config.path("metadata").isMissingNode() && !config.path("metadata").isObject()) {
            throw new JsonPatches.PatchException(true, "an applied configuration must be an object whose metadata is an object");
        }
        requireWithinDepth(config.get("spec"), limits.maxDepth());
        FieldManager.Result r = new FieldManager(ManagedFields.shapes(policy)).apply(
            current == null ? null : ManagedFields.tree(current), ManagedFields.tree(config),
            current == null ? List.of() : ManagedFields.decode(current.getMetadata().getManagedFields()),
            request.getFieldManager(), request.getApiVersion(), request.getForce(), Instant.ofEpochMilli(now));
        JsonNode after = MAPPER.valueToTree(r.object());
        DesiredState effective = fromEditable(request, after == null || after.isNull() ? MAPPER.createObjectNode() : after, limits);
        effective.setManagedFields(ManagedFields.encode(r.managedFields()));
        requireWithinBytes(effective, limits.maxBytes());
        return effective;
    }

    /**
     * Any other write records an Update entry for its manager, who takes the fields it changes from the others. A write
     * that names no manager records nothing on an object without managed fields, the common case of a producer writing
     * the desired topic, and otherwise writes as {@link ManagedFields#TOPIC_MANAGER}.
     */
    private static DesiredState updated(Resource current, DesiredState effective, ReconcilePolicy policy, Limits limits, long now) {
        String manager = effective.getFieldManager();
        List<ManagedFieldsEntry> base = effective.getManagedFields() != null ? effective.getManagedFields()
            : current == null ? List.of() : current.getMetadata().getManagedFields();
        if (manager == null || manager.isEmpty()) {
            if (base.isEmpty()) {
                return effective;
            }
            manager = ManagedFields.TOPIC_MANAGER;
        }
        FieldManager.Result r = new FieldManager(ManagedFields.shapes(policy)).update(
            current == null ? null : ManagedFields.tree(current), ManagedFields.tree(effective), ManagedFields.decode(base),
            manager, effective.getApiVersion(), Instant.ofEpochMilli(now));
        // The write is this admission's own decoded copy, so it takes its managed fields in place: a builder would copy
        // the whole spec first.
        effective.setManagedFields(ManagedFields.encode(r.managedFields()));
        requireWithinBytes(effective, limits.maxBytes());
        return effective;
    }

    /** An apply's conflicts: Kubernetes' message, and one FieldManagerConflict cause per field. */
    private static Refused conflicts(ApplyConflictException e) {
        List<EventCause> causes = new ArrayList<>();
        for (Conflict c : e.conflicts()) {
            causes.add(new EventCause(FIELD_MANAGER_CONFLICT, c.message(), c.field()));
        }
        return new Refused(EventType.Conflict, FIELD_MANAGER_CONFLICT, e.getMessage(), causes);
    }

    private static void requireWithinDepth(JsonNode spec, int maxDepth) {
        if (spec != null && JsonPatches.measure(spec, Long.MAX_VALUE, maxDepth)[1] > maxDepth) {
            throw new JsonPatches.TooLarge("the patched spec is deeper than the limit of " + maxDepth + " levels (spec.max.depth)");
        }
    }

    /** The patched write as a record on the desired topic, which spec.max.bytes bounds as for any other write. */
    private static void requireWithinBytes(DesiredState effective, int maxBytes) {
        long size = EncodedSize.of(effective, maxBytes);
        if (size > maxBytes) {
            throw new JsonPatches.TooLarge("the patched object would take more than the limit of " + maxBytes
                + " bytes (spec.max.bytes)");
        }
    }

    /** References in the REST API's shape: Kubernetes' field names. */
    public static ArrayNode ownerReferencesJson(List<OwnerReference> refs) {
        ArrayNode out = MAPPER.createArrayNode();
        for (OwnerReference r : refs) {
            out.addObject().put("apiVersion", r.getApiVersion()).put("kind", r.getKind()).put("name", r.getName())
                .put("uid", r.getUid()).put("controller", r.getController()).put("blockOwnerDeletion", r.getBlockOwnerDeletion());
        }
        return out;
    }

    /** References from the REST API's shape; absent or null is none. Throws IllegalArgumentException on a wrong shape. */
    public static List<OwnerReference> ownerReferences(JsonNode n) {
        List<OwnerReference> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            throw new IllegalArgumentException("metadata.ownerReferences must be an array");
        }
        for (JsonNode item : n) {
            if (!item.isObject()) {
                throw new IllegalArgumentException("metadata.ownerReferences must be an array of objects");
            }
            out.add(new OwnerReference(item.path("apiVersion").asText(OWNER_API_VERSION), item.path("kind").asText(""),
                item.path("name").asText(""), item.path("uid").asText(""), item.path("controller").asBoolean(false),
                item.path("blockOwnerDeletion").asBoolean(false)));
        }
        return out;
    }

    private static JsonNode requireObject(JsonNode document) {
        if (!document.isObject()) {
            throw new JsonPatches.PatchException(true, "a merge patch must be a JSON object");
        }
        return document;
    }

    private static Map<String, String> strings(JsonNode n, String field) {
        Map<String, String> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new IllegalArgumentException("metadata." + field + " must be an object of strings");
        }
        for (var e : n.properties()) {
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException("metadata." + field + "." + e.getKey() + " must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static List<String> list(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            throw new IllegalArgumentException("metadata.finalizers must be an array of strings");
        }
        for (JsonNode item : n) {
            if (!item.isTextual()) {
                throw new IllegalArgumentException("metadata.finalizers must be an array of strings");
            }
            out.add(item.asText());
        }
        return out;
    }

    private static StoredSpec storedSpec(Resource r) {
        ObjectMeta m = r.getMetadata();
        return new StoredSpec(AvroMapping.frozenTree(r.getSpec()), m.getLabels(), m.getAnnotations(), m.getFinalizers(),
            m.getGeneration());
    }

    private static String key(DesiredState d) {
        return d.getKind() + "/" + d.getNamespace() + "/" + d.getName();
    }
}
