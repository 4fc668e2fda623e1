package io.statesync.topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventCause;
import io.statesync.avro.EventType;
import io.statesync.avro.Resource;
import io.statesync.reconciler.KindDefinition;
import io.statesync.reconciler.schema.FieldError;
import io.statesync.reconciler.schema.StructuralSchema;
import io.statesync.schemas.Values;

/**
 * The admission step of a kind a CustomResourceDefinition defines: the write's object pruned, defaulted and validated
 * by the schema of the version it was written in, as the apiserver does before it stores a custom resource. Its half in the key's
 * task, so that every writer, the Kafka topic's too, is held to it, and dry runs decide as writes do.
 */
public final class Schemas {

    /** The write with its spec pruned and defaulted, or the refusal whose causes name each field. */
    record Outcome(DesiredState effective, WriteAdmission.Refused refused) {
    }

    private Schemas() {
    }

    /** {@code apiVersion} is the request's: the version whose schema holds the write. */
    static Outcome admit(KindDefinition definition, String apiVersion, DesiredState effective, Resource current) {
        StructuralSchema schema = definition.schemaFor(apiVersion);
        if (schema == null) {
            return new Outcome(effective, null);
        }
        StructuralSchema.Admission a = schema.admit(object(Values.toJava(effective.getSpec())),
            current == null ? null : object(Values.toJava(current.getSpec())));
        if (!a.valid()) {
            return new Outcome(null, refusal(a.errors()));
        }
        DesiredState out = DesiredState.newBuilder(effective).setSpec(Values.fromJava(a.object().get("spec"))).build();
        return new Outcome(out, null);
    }

    /** A status write's report with its status pruned and defaulted, or the refusal whose causes name each field. */
    public record StatusOutcome(io.statesync.avro.ObservedState report, WriteAdmission.Refused refused) {
    }

    /**
     * Holds a status write to the storage version's schema, as the apiserver holds a status update: the status the
     * write reports (its fields, conditions and observedGeneration) is validated beside the stored spec, and only
     * the status's own errors refuse it; the fields the schema does not know are pruned from the report.
     */
    public static StatusOutcome admitStatus(KindDefinition definition, io.statesync.avro.ObservedState report,
                                            Resource current) {
        StructuralSchema schema = definition.schema();
        if (schema == null) {
            return new StatusOutcome(report, null);
        }
        Map<String, Object> status = new LinkedHashMap<>();
        if (Values.toJava(report.getStatus()) instanceof Map<?, ?> fields) {
            fields.forEach((k, v) -> status.put((String) k, v));
        }
        if (!report.getConditions().isEmpty()) {
            status.put("conditions", conditions(report.getConditions()));
        }
        if (report.getObservedGeneration() > 0) {
            status.put("observedGeneration", report.getObservedGeneration());
        }
        Map<String, Object> object = object(Values.toJava(current.getSpec()));
        object.put("status", status);
        StructuralSchema.Admission a = schema.admit(object, null);
        List<FieldError> errors = a.errors().stream().filter(e -> e.field().startsWith("status")).toList();
        if (!errors.isEmpty()) {
            return new StatusOutcome(null, refusal(errors));
        }
        Map<String, Object> admitted = new LinkedHashMap<>();
        if (a.object().get("status") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> admitted.put((String) k, v));
        }
        admitted.remove("conditions");
        admitted.remove("observedGeneration");
        io.statesync.avro.ObservedState out = io.statesync.avro.ObservedState.newBuilder(report)
            .setStatus(admitted.isEmpty() && report.getStatus() == null ? null : Values.fromJava(admitted)).build();
        return new StatusOutcome(out, null);
    }

    /** The reported conditions as the JSON a status holds them in. */
    private static List<Object> conditions(List<io.statesync.avro.Condition> conditions) {
        List<Object> out = new ArrayList<>(conditions.size());
        for (io.statesync.avro.Condition c : conditions) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", c.getType());
            m.put("status", c.getStatus());
            m.put("reason", c.getReason());
            m.put("message", c.getMessage());
            m.put("lastTransitionTime", c.getLastTransitionTime() == null ? null : c.getLastTransitionTime().toString());
            if (c.getObservedGeneration() != null) {
                m.put("observedGeneration", c.getObservedGeneration());
            }
            out.add(m);
        }
        return out;
    }

    private static Map<String, Object> object(Object spec) {
        Map<String, Object> o = new LinkedHashMap<>();
        if (spec != null) {
            o.put("spec", spec);
        }
        return o;
    }

    /** Kubernetes' aggregate message: one error as it is, several in brackets, and a cause per error. */
    private static WriteAdmission.Refused refusal(List<FieldError> errors) {
        List<EventCause> causes = new ArrayList<>(errors.size());
        List<String> parts = new ArrayList<>(errors.size());
        for (FieldError e : errors) {
            causes.add(new EventCause(e.reason(), e.message(), e.field()));
            parts.add(e.toString());
        }
        String message = parts.size() == 1 ? parts.get(0) : "[" + String.join(", ", parts) + "]";
        return new WriteAdmission.Refused(EventType.Invalid, WriteAdmission.SCHEMA_VIOLATION, message, causes);
    }
}
