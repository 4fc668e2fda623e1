package io.statesync.reconciler.schema;

import java.util.List;

/** A schema that cannot be compiled: one error per problem, fields named as in the definition. */
public final class InvalidSchemaException extends Exception {

    private final List<FieldError> errors;

    public InvalidSchemaException(List<FieldError> errors) {
        super(errors.toString(), null, false, false);
        this.errors = List.copyOf(errors);
    }

    public List<FieldError> errors() {
        return errors;
    }
}
