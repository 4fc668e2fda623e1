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

    /**
     * Whether a request path belongs to the Kubernetes API, whose errors are Status objects: discovery, OpenAPI, the
     * group's and the core group's paths, but not the server's own {@code /api/v1/...} API.
     */
    public static boolean isKubePath(String path) {
        return path.equals("/version") || path.equals("/api") || path.equals("/api/v1") || path.startsWith("/api/v1/namespaces/")
            || path.equals("/api/v1/events") || path.equals("/apis") || path.startsWith("/apis/")
            || path.startsWith("/openapi/v2") || path.startsWith("/openapi/v3");
    }
}
