package io.statesync.kube.internal;

/** The paths and names of the Kubernetes API. */
public final class KubePaths {

    public static final String GROUP = "statesync.io";
    public static final String VERSION = "v1";
    public static final String GROUP_VERSION = GROUP + "/" + VERSION;
    public static final String ROOT = "/apis/" + GROUP_VERSION;
    public static final String EVENTS_GROUP_VERSION = "events.k8s.io/v1";

    private KubePaths() {
    }

    /** A boolean query parameter as Kubernetes parses it (Go's ParseBool): 1, t, true in any case; absent is false. */
    public static boolean flag(String value) {
        return value != null && java.util.Set.of("1", "t", "true").contains(value.trim().toLowerCase(java.util.Locale.ROOT));
    }

    /** A boolean query parameter that is explicitly false (0, f, false in any case). */
    public static boolean explicitlyFalse(String value) {
        return value != null && java.util.Set.of("0", "f", "false").contains(value.trim().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Whether a request path belongs to the Kubernetes API, whose errors are Status objects: discovery, OpenAPI, the
     * group's and the core group's paths, but not the server's own {@code /api/v1/...} API.
     */
    public static boolean isKubePath(String path) {
        return path.equals("/version") || path.equals("/api") || path.equals("/api/v1") || path.equals("/api/v1/namespaces") || path.startsWith("/api/v1/namespaces/")
            || path.equals("/api/v1/events") || path.equals("/apis") || path.startsWith("/apis/")
            || path.startsWith("/openapi/v2") || path.startsWith("/openapi/v3");
    }
}
