package io.statesync.rest.store.internal;

import java.util.ArrayList;
import java.util.List;

import io.statesync.avro.EventCause;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.rest.ApiError;
import io.statesync.topology.StatusSubresource;
import io.statesync.topology.WriteAdmission;

/** The HTTP error of a write admission refused, whether the task refused it or a dry run did. */
public final class Refusals {

    private Refusals() {
    }

    /** Throws the HTTP error of a Conflict or Invalid admission answer; any other answer admitted its write. */
    public static void throwIfRefused(ReconcileEvent e) {
        if (e.getType() == EventType.Conflict || e.getType() == EventType.Invalid) {
            throw error(e.getType(), e.getReason(), e.getMessage(), e.getResourceVersion() == null ? "" : e.getResourceVersion(),
                e.getCauses());
        }
    }

    /** The HTTP error of a refusal decided against {@code currentVersion} (empty when there is no object). */
    public static ApiError of(WriteAdmission.Refused r, String currentVersion) {
        return error(r.type(), r.reason(), r.message(), currentVersion, r.causes());
    }

    /**
     * The status of a refused write: 409 for a conflict, 404 for a missing object, 422 for a patch that does not apply,
     * a patch whose result would pass the size, depth or operation limits, or a spec that breaks the kind's validation
     * rules; 413 for a write whose outputs would not fit the topics or a written status over its bound; 503 while
     * the kind's policy does not decode.
     */
    static ApiError error(EventType type, String reason, String message, String currentVersion, List<EventCause> causes) {
        if (WriteAdmission.FIELD_MANAGER_CONFLICT.equals(reason)) {
            return ApiError.applyConflict(message, causes(causes));
        }
        if (type == EventType.Conflict) {
            return WriteAdmission.ALREADY_EXISTS.equals(reason) ? ApiError.alreadyExists(message)
                : ApiError.conflict(message, currentVersion);
        }
        return switch (reason) {
            case WriteAdmission.NOT_FOUND -> ApiError.notFound(message);
            case WriteAdmission.VALIDATION_FAILED -> ApiError.validationFailed(message);
            case WriteAdmission.SCHEMA_VIOLATION -> ApiError.invalid(message, causes(causes));
            case WriteAdmission.OUTPUT_TOO_LARGE -> new ApiError(413, WriteAdmission.OUTPUT_TOO_LARGE, message);
            case StatusSubresource.STATUS_TOO_LARGE -> new ApiError(413, StatusSubresource.STATUS_TOO_LARGE, message);
            case WriteAdmission.PATCH_TOO_LARGE -> new ApiError(422, WriteAdmission.PATCH_TOO_LARGE, message);
            case WriteAdmission.INVALID_OWNER_REFERENCES, WriteAdmission.PATCH_NOT_APPLICABLE -> ApiError.unprocessable(message);
            case WriteAdmission.POLICY_UNAVAILABLE -> ApiError.unavailable(message, 1);
            default -> ApiError.badRequest(message);
        };
    }

    private static List<ApiError.Cause> causes(List<EventCause> causes) {
        List<ApiError.Cause> out = new ArrayList<>();
        for (EventCause c : causes) {
            out.add(new ApiError.Cause(c.getReason(), c.getMessage(), c.getField()));
        }
        return out;
    }
}
