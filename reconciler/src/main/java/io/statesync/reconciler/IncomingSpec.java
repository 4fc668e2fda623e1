package io.statesync.reconciler;

import java.util.List;
import java.util.Map;

/** A desired-state write as admission sees it, before a generation is assigned. Null collections read as empty. */
public record IncomingSpec(Object spec, Map<String, String> labels, Map<String, String> annotations,
                           List<String> finalizers) {
    public IncomingSpec {
        spec = Trees.normalize(spec);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        finalizers = finalizers == null ? List.of() : List.copyOf(finalizers);
    }

    public static IncomingSpec of(Object spec) {
        return new IncomingSpec(spec, Map.of(), Map.of(), List.of());
    }
}
