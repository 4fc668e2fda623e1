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
final class Schemas {

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
