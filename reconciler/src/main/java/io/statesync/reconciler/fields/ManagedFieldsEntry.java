package io.statesync.reconciler.fields;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of {@code metadata.managedFields}: the fields that one manager owns. An Apply entry is one per manager;
 * an Update entry is one per manager and API version. {@code time} is the last time the manager changed the object
 * (second precision), absent when it never did.
 */
public record ManagedFieldsEntry(String manager, Operation operation, String apiVersion, Instant time,
        FieldSet fields) {
    public ManagedFieldsEntry {
        manager = manager == null ? "" : manager;
        Objects.requireNonNull(operation, "operation");
        apiVersion = apiVersion == null ? "" : apiVersion;
        fields = fields == null ? FieldSet.empty() : fields;
    }
}
