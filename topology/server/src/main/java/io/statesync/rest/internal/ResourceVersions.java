package io.statesync.rest.internal;

import io.statesync.topology.ResourceSummary;

/**
 * Resource versions as numbers. The topology draws them from one counter per partition, and a key never changes
 * partition, so the versions of one key grow with every change and can be compared.
 */
public final class ResourceVersions {

    private ResourceVersions() {
    }

    /** The version as a number, or -1 when it is not one (then no comparison can be made). */
    public static long parse(String version) {
        return ResourceSummary.parseVersion(version);
    }

    /** An ETag or If-None-Match value without quotes and weak prefix; null when absent or {@code *}. */
    public static String unquote(String etag) {
        if (etag == null || etag.isBlank() || etag.trim().equals("*")) {
            return null;
        }
        String s = etag.trim();
        if (s.startsWith("W/")) {
            s = s.substring(2);
        }
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
