package io.statesync.kube.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * The Kubernetes API's resourceVersion: one token that is both where a watch resumes and an object's own version.
 * Every object's resourceVersion is a {@link WatchCursor} (a position in statesync.resources, and in a list the
 * object's key) whose JSON also carries the object's per-key version under {@code "r"}: resuming a watch from it gives
 * no gap and no duplicate (readers of positions ignore {@code r}), and sending it back as a precondition compares the
 * per-key version, which admission checks as for every other write. A list's or bookmark's resourceVersion is a plain
 * {@link WatchPosition}. See docs/kubernetes-api.md, "Positions".
 */
public final class KubeResourceVersion {

    private static final String OBJECT_VERSION = "r";

    private KubeResourceVersion() {
    }

    /** The resourceVersion of an object delivered at {@code position} (after {@code afterKey}, or every key when null). */
    public static String token(WatchPosition position, String afterKey, String objectVersion) {
        ObjectNode json = new WatchCursor(position, afterKey).toJson();
        return WatchPosition.base64(json.put(OBJECT_VERSION, objectVersion == null ? "" : objectVersion));
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
        String carried = objectVersion(rv);
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

    /** The object's version a token of {@link #token} carries; null when it carries none or is no token. */
    static String objectVersion(String token) {
        try {
            JsonNode r = WatchPosition.readToken(token).path(OBJECT_VERSION);
            return r.isTextual() ? r.asText() : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
