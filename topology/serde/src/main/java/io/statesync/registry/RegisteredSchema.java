package io.statesync.registry;

/** A schema's place in a subject: its global id and its version within the subject. */
public record RegisteredSchema(String subject, int id, int version) {
}
