package io.statesync.rest.store;

import java.util.List;
import java.util.function.Function;

import io.statesync.avro.SyncStatus;
import io.statesync.rest.ApiError;
import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.ResourceKey;
import io.statesync.view.StoredResource;

/**
 * What Kubernetes' NamespaceLifecycle admission decides about a write into a namespace, from the Namespace objects as
 * the resource view holds them (their summaries, never decoded):
 * <ul>
 *   <li>a create (a write of a key the view does not hold) in a namespace being deleted is refused, 403 Forbidden
 *   with the cause {@code NamespaceTerminating}; a write to an object that exists is not, so that what holds its
 *   deletion (its finalizers) can still be removed;</li>
 *   <li>a write into a namespace with no Namespace object is accepted ({@link Mode#AUTO_PROVISION}: the namespace
 *   exists while it holds resources, and no object is made) or refused, 404 {@code namespaces "x" not found}
 *   ({@link Mode#ENFORCE}).</li>
 * </ul>
 * Deletes are never refused. A create that races the namespace's deletion may pass this check; the namespace deleter
 * then deletes it with the rest, since it empties a namespace before it releases it.
 */
public final class NamespaceLifecycle {

    /** The values of {@code namespace.lifecycle}. */
    public enum Mode {
        AUTO_PROVISION, ENFORCE;

        /** {@code auto-provision} or {@code enforce}, as the configuration writes them. */
        public static Mode parse(String value) {
            return "enforce".equals(value) ? ENFORCE : AUTO_PROVISION;
        }
    }

    private static final String NAMESPACE_PREFIX = ApiOnlyKinds.NAMESPACE + "//";

    private final Mode mode;
    private final Function<String, StoredResource> objects;

    /** @param objects the stored object of a key, or null when there is none (the resource view's {@code get}) */
    public NamespaceLifecycle(Mode mode, Function<String, StoredResource> objects) {
        this.mode = mode;
        this.objects = objects;
    }

    /** The key of the Namespace object named {@code namespace}. */
    public static String namespaceKey(String namespace) {
        return NAMESPACE_PREFIX + namespace;
    }

    /** Refuses a write of {@code key} as described above; a cluster-scoped key is never refused. */
    public void admit(ResourceKey key) {
        if (key.clusterScoped()) {
            return;
        }
        StoredResource ns = objects.apply(namespaceKey(key.namespace()));
        if (ns == null) {
            if (mode == Mode.ENFORCE) {
                throw ApiError.notFound("namespaces \"" + key.namespace() + "\" not found")
                    .about(new ApiError.Subject("", "namespaces", key.namespace()));
            }
            return;
        }
        if (ns.syncStatus() == SyncStatus.Deleting && objects.apply(key.toString()) == null) {
            throw terminating(key.namespace());
        }
    }

    /** Kubernetes' refusal of new content in a namespace being deleted. */
    static ApiError terminating(String namespace) {
        return ApiError.forbidden("unable to create new content in namespace " + namespace + " because it is being terminated",
            List.of(new ApiError.Cause("NamespaceTerminating", "namespace " + namespace + " is being terminated",
                "metadata.namespace")));
    }
}
