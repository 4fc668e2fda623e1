package io.statesync.kube.internal;

import io.statesync.rest.ApiError;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * The resourceVersion strings of the Kubernetes API. Every object's resourceVersion is a watch cursor (a position in
 * statesync.resources, and in a list the object's key) that also carries the object's own per-key version: resuming
 * a watch from it gives no gap and no duplicate, and sending it back as a precondition compares the per-key version,
 * which admission checks as for every other write. See docs/kubernetes-api.md, "Positions".
 */
public final class Versions {

    private Versions() {
    }

    /** The resourceVersion of an object delivered at {@code position} (after {@code afterKey}, or every key when null). */
    public static String token(WatchPosition position, String afterKey, String objectVersion) {
        return new WatchCursor(position, afterKey).encodeWithVersion(objectVersion);
    }

    /** A list's or bookmark's resourceVersion: a plain position. */
    public static String position(WatchPosition position) {
        return position.encode();
    }

    /**
     * The per-key version a write's precondition compares: the one a token carries, or a bare number as the server's
     * own API hands out; null for none. A position without an object's version (a list's) is no precondition: 409.
     */
    public static String precondition(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isBlank()) {
            return null;
        }
        String rv = resourceVersion.trim();
        if (rv.chars().allMatch(Character::isDigit)) {
            return rv;
        }
        String carried = WatchCursor.objectVersion(rv);
        if (carried == null || carried.isEmpty()) {
            throw ApiError.conflict("resourceVersion " + abbreviate(rv) + " is not the version of an object;"
                + " read the object and send its metadata.resourceVersion", "");
        }
        return carried;
    }

    /**
     * Where a watch resumes: null to start from the current objects (no resourceVersion, or {@code 0}, "any"); a
     * token that is no position is 410 Expired, so that the client lists again.
     */
    public static WatchCursor cursor(String resourceVersion) {
        if (isAny(resourceVersion)) {
            return null;
        }
        try {
            return WatchCursor.decode(resourceVersion.trim());
        } catch (IllegalArgumentException e) {
            throw ApiError.gone("too old resource version: " + abbreviate(resourceVersion) + " is not a position of this"
                + " server; list again");
        }
    }

    /** No resourceVersion, or {@code 0}: any version will do. */
    public static boolean isAny(String resourceVersion) {
        return resourceVersion == null || resourceVersion.isBlank() || resourceVersion.trim().equals("0");
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
