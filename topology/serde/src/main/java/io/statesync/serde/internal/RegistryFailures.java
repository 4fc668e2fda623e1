package io.statesync.serde.internal;

import io.statesync.registry.SchemaRegistryException;
import io.statesync.serde.SerdeException;
import io.statesync.serde.SerdeException.Reason;

/** Maps registry failures to serde reasons, so a DLQ tells a bad record from a registry outage. */
public final class RegistryFailures {

    private RegistryFailures() {
    }

    public static SerdeException onRegister(String topic, SchemaRegistryException e) {
        Reason reason = e.isIncompatible() ? Reason.INCOMPATIBLE_SCHEMA : common(e);
        return new SerdeException(topic, reason, SerdeException.NO_SCHEMA_ID, e.getMessage(), e);
    }

    public static SerdeException onFetch(String topic, int schemaId, SchemaRegistryException e) {
        Reason reason = e.isNotFound() ? Reason.UNKNOWN_SCHEMA_ID : common(e);
        return new SerdeException(topic, reason, schemaId, e.getMessage(), e);
    }

    private static Reason common(SchemaRegistryException e) {
        return e.isRetriable() ? Reason.REGISTRY_UNAVAILABLE : Reason.REGISTRY_ERROR;
    }
}
