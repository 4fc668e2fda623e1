package io.statesync.reconciler.schema;

/**
 * One reason a write or a schema is refused, as a Kubernetes StatusCause: {@code field} the path
 * ({@code spec.items[0].name}, {@code spec.labels[key]}), {@code reason} the cause type ({@code FieldValueRequired},
 * {@code FieldValueInvalid}, {@code FieldValueNotSupported}, {@code FieldValueTooLong}, {@code FieldValueTooMany},
 * {@code FieldValueDuplicate}, {@code FieldValueForbidden}) and {@code message} the text kubectl prints after the
 * field ({@code Required value}, {@code Invalid value: "x": ...}).
 */
public record FieldError(String field, String reason, String message) {

    public static FieldError required(String field) {
        return new FieldError(field, "FieldValueRequired", "Required value");
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(field, "FieldValueInvalid", "Invalid value: " + Shown.of(value) + ": " + detail);
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(field, "FieldValueForbidden", "Forbidden: " + detail);
    }

    /** {@code field: message}, as Kubernetes joins them in a Status message. */
    @Override
    public String toString() {
        return field + ": " + message;
    }

    /** Values as Go's {@code %#v}-like rendering of field errors shows them: strings quoted, others as JSON. */
    static final class Shown {
        private Shown() {
        }

        static String of(Object value) {
            if (value instanceof String s) {
                return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            }
            if (value instanceof java.util.Map<?, ?>) {
                return "\"object\"";
            }
            if (value instanceof java.util.List<?>) {
                return "\"array\"";
            }
            return String.valueOf(value);
        }
    }
}
