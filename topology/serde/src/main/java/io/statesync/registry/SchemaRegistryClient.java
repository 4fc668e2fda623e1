package io.statesync.registry;

import java.io.Closeable;
import java.util.Optional;

import org.apache.avro.Schema;

/**
 * The part of the Confluent Schema Registry REST API that statesync uses. Implementations cache ids both ways
 * and are safe to share between threads and serdes.
 *
 * <p>Every failure is a {@link SchemaRegistryException}: {@link SchemaRegistryException#isRetriable()} tells a
 * registry that could not be reached from one that answered no.
 */
public interface SchemaRegistryClient extends Closeable {

    /**
     * Registers a schema under a subject, or finds it when it is already there: {@code POST /subjects/{s}/versions}.
     * The schema is sent as {@code schema.toString()}; registries that do not canonicalise give another string
     * another id, so always pass the same schema.
     *
     * @return the schema id
     * @throws SchemaRegistryException with status 409 when the subject's compatibility rule rejects it
     */
    int register(String subject, Schema schema);

    /**
     * Finds a schema already registered under a subject, without registering it: {@code POST /subjects/{s}}.
     *
     * @return the registration, or empty when the subject does not exist or does not hold the schema
     */
    Optional<RegisteredSchema> lookup(String subject, Schema schema);

    /**
     * The schema with a given id: {@code GET /schemas/ids/{id}}. Throws a {@link SchemaRegistryException} with
     * status 404 for an unknown id, and Avro's {@link org.apache.avro.SchemaParseException} when the registry
     * holds something that is not a valid Avro schema under that id.
     */
    Schema getById(int id);

    /**
     * The compatibility level of a subject, {@code GET /config/{s}}; a subject without its own level reports the
     * global one. A null subject asks for the global level ({@code GET /config}).
     */
    CompatibilityLevel getCompatibility(String subject);

    /** Sets a subject's compatibility level, {@code PUT /config/{s}}; a null subject sets the global level. */
    void setCompatibility(String subject, CompatibilityLevel level);

    /**
     * Whether a schema may be registered next under a subject: {@code POST /compatibility/subjects/{s}/versions/latest}.
     * A subject with no versions accepts anything.
     */
    boolean isCompatible(String subject, Schema schema);

    @Override
    default void close() {
    }
}
