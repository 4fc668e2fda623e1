package io.statesync.serde;

import org.apache.kafka.common.errors.SerializationException;

/**
 * A record that could not be serialized or deserialized, with the topic and a {@link Reason} a DLQ or an
 * operator can act on. {@link #isBadData()} separates a record that will never decode (send it to the DLQ)
 * from a registry or deployment problem that affects every record (stop, or retry).
 */
public class SerdeException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** Why the record failed. */
    public enum Reason {
        /** The first byte is not the Confluent wire-format magic byte 0x00. */
        WRONG_MAGIC_BYTE(true),
        /** Fewer bytes than the header, or than the Avro data needs. */
        TRUNCATED(true),
        /** The registry does not know the schema id in the header. */
        UNKNOWN_SCHEMA_ID(true),
        /** The writer schema is not valid Avro, or this reader cannot resolve it. */
        UNREADABLE_SCHEMA(true),
        /** The bytes do not decode with the writer schema, or bytes are left over. */
        MALFORMED_PAYLOAD(true),
        /** The record object does not match its own schema (a required field is null, a wrong type...). */
        INVALID_RECORD(true),
        /** The registry rejected the schema under the subject's compatibility level (HTTP 409). */
        INCOMPATIBLE_SCHEMA(false),
        /** Auto-registration is off and the subject does not hold the schema. */
        SCHEMA_NOT_REGISTERED(false),
        /** The registry could not be reached or answered 5xx, even after retries. */
        REGISTRY_UNAVAILABLE(false),
        /** The registry refused the request for another reason (authentication, a bad request...). */
        REGISTRY_ERROR(false);

        private final boolean badData;

        Reason(boolean badData) {
            this.badData = badData;
        }

        /** Whether the record itself is at fault, so that retrying it can never succeed. */
        public boolean isBadData() {
            return badData;
        }
    }

    /** Marks a failure that has no schema id (the header was unreadable, or no id was obtained). */
    public static final int NO_SCHEMA_ID = -1;

    private final String topic;
    private final Reason reason;
    private final int schemaId;

    public SerdeException(String topic, Reason reason, int schemaId, String detail, Throwable cause) {
        super(reason + " on topic '" + topic + "'" + (schemaId == NO_SCHEMA_ID ? "" : " (schema id " + schemaId + ")")
            + ": " + detail, cause);
        this.topic = topic;
        this.reason = reason;
        this.schemaId = schemaId;
    }

    public String topic() {
        return topic;
    }

    public Reason reason() {
        return reason;
    }

    /** The schema id from the header or the registry, or {@link #NO_SCHEMA_ID}. */
    public int schemaId() {
        return schemaId;
    }

    /** Whether the record itself is at fault; see {@link Reason#isBadData()}. */
    public boolean isBadData() {
        return reason.isBadData();
    }

    /**
     * The first serde failure in {@code error}'s cause chain that is not the record's fault (the registry could not be
     * reached or answered an error), or null: such a failure is retried, where bad data goes to the DLQ.
     */
    public static SerdeException registryFailureIn(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SerdeException se && !se.isBadData()) {
                return se;
            }
        }
        return null;
    }

    /** Whether the same call may succeed later: the registry was unreachable. */
    public boolean isRetriable() {
        return reason == Reason.REGISTRY_UNAVAILABLE;
    }
}
