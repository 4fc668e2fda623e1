package io.statesync.registry;

/**
 * A registry call that failed. A registry that answered carries its HTTP status and, where it sent one, its
 * error code (Confluent's {@code error_code}: 40401 subject not found, 40403 schema not found, 409 incompatible,
 * 42201 invalid schema...). A registry that could not be reached, or answered 5xx, is {@link #isRetriable()}.
 */
public class SchemaRegistryException extends RuntimeException {

    /** No HTTP response: the connection failed or timed out. */
    public static final int NO_STATUS = -1;
    /** The response carried no error code. */
    public static final int NO_ERROR_CODE = -1;

    private static final long serialVersionUID = 1L;

    private final int status;
    private final int errorCode;

    public SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    /** The HTTP status, or {@link #NO_STATUS} when there was no response. */
    public int status() {
        return status;
    }

    /** The registry's error code, or {@link #NO_ERROR_CODE}. */
    public int errorCode() {
        return errorCode;
    }

    /** Whether trying again later may succeed: no response, 408, 429 or a 5xx. */
    public boolean isRetriable() {
        return status == NO_STATUS || status == 408 || status == 429 || status >= 500;
    }

    /** Whether the registry said the subject, version or schema does not exist. */
    public boolean isNotFound() {
        return status == 404;
    }

    /** Whether the registry rejected a schema as incompatible with the subject's earlier versions. */
    public boolean isIncompatible() {
        return status == 409;
    }
}
