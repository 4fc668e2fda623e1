package io.statesync.reconciler;

import java.util.List;
import java.util.Map;

/** What admission has stored for a key: the canonical desired spec, its metadata and its generation. */
public record StoredSpec(Object spec, Map<String, String> labels, Map<String, String> annotations,
                         List<String> finalizers, long generation) {
    public StoredSpec {
        spec = Trees.normalize(spec);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        finalizers = finalizers == null ? List.of() : List.copyOf(finalizers);
    }
}
