package io.statesync.rest.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.PatchType;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Propagation;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.AdmissionTransport;
import io.statesync.rest.store.ResourceStore;
import io.statesync.schemas.Values;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.LoopSupervisor;
import io.statesync.topology.ResourceKey;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' namespace controller and its CustomResourceDefinition finalizer in one loop: empties each namespace and
 * each definition being deleted (a definition's contents are the objects of the kind it defines, in every namespace),
 * then releases it. A background loop under a {@link LoopSupervisor}; each round, for namespaces as follows and for
 * definitions alike:
 * <ol>
 *   <li>finds the namespaces being deleted among the Namespace objects of the resource view (their summaries, a walk
 *   over the namespaces' index entries with nothing decoded);</li>
 *   <li>for each, walks the view's keys {@code kind/namespace/...} kind by kind (the keys of one kind and namespace are
 *   contiguous, so the walk reads only the namespace's own entries) and deletes through the resource store, as one
 *   batch of Background deletes submitted together, every object that is not being deleted yet, up to
 *   {@code namespace.deletion.batch.max.items} objects and {@code namespace.deletion.batch.max.bytes} bytes a round;
 *   each delete is routed by its key to the task that owns it, in whatever partition, as any delete is, and the
 *   garbage collector then reaches the objects' dependents;</li>
 *   <li>a namespace in which nothing is left (what is being deleted waits for its agents and finalizers first) is
 *   released: its {@code kubernetes} finalizer is removed, under its resourceVersion as precondition, and the
 *   namespace goes.</li>
 * </ol>
 * Every instance runs it: the view is whole on each, a delete of what is already being deleted is a no-op, and a
 * release that lost a race fails its precondition, so two instances do no harm, only repeat a little work. An orphan
 * placeholder (what an agent reports and nobody wrote) is neither deleted nor waited for.
 */
public final class ContentDeleter {

    private static final Logger LOG = LoggerFactory.getLogger(ContentDeleter.class);
    private static final String NAMESPACE_PREFIX = ApiOnlyKinds.NAMESPACE + "//";
    private static final String DEFINITION_PREFIX = ApiOnlyKinds.CUSTOM_RESOURCE_DEFINITION + "//";

    /** What the deleter reads: the resource view's index. */
    interface Index {
        boolean ready();

        Iterable<String> kinds();

        /** Every stored object whose key starts with {@code prefix}, in key order. */
        List<StoredResource> withKeyPrefix(String prefix);
    }

    /** What the deleter writes, through the resource store. */
    interface Writes {
        void deleteAll(List<AdmissionTransport.Submission> deletes);

        /** Writes {@code desired} to {@code key}, awaited; an ApiError when it is refused. */
        void write(ResourceKey key, io.statesync.avro.DesiredState desired) throws InterruptedException;
    }

    private final Index view;
    private final Writes store;
    private final int maxItems;
    private final long maxBytes;
    private final long intervalMs;
    private final LoopSupervisor loop;

    public ContentDeleter(AppConfig config, ResourceView view, ResourceStore store) {
        this(config, new Index() {
            @Override
            public boolean ready() {
                return view.ready();
            }

            @Override
            public Iterable<String> kinds() {
                return view.kinds();
            }

            @Override
            public List<StoredResource> withKeyPrefix(String prefix) {
                return view.withKeyPrefix(prefix, Integer.MAX_VALUE);
            }
        }, new Writes() {
            @Override
            public void deleteAll(List<AdmissionTransport.Submission> deletes) {
                store.writeAll(deletes);
            }

            @Override
            public void write(ResourceKey key, io.statesync.avro.DesiredState desired) throws InterruptedException {
                store.write(key, desired, "content-deleter-" + key.name(), null);
            }
        });
    }

    ContentDeleter(AppConfig config, Index view, Writes store) {
        this.view = view;
        this.store = store;
        this.maxItems = config.getInt(ServerConfig.NAMESPACE_DELETION_BATCH_MAX_ITEMS);
        this.maxBytes = config.getLong(ServerConfig.NAMESPACE_DELETION_BATCH_MAX_BYTES);
        this.intervalMs = config.getLong(ServerConfig.NAMESPACE_DELETION_INTERVAL_MS);
        this.loop = LoopSupervisor.of("statesync-content-deleter", this::run, config);
    }

    public LoopSupervisor loop() {
        return loop;
    }

    private void run() {
        while (!loop.stopping()) {
            if (view.ready()) {
                round();
            }
            try {
                TimeUnit.MILLISECONDS.sleep(intervalMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One round; answers how many deletes it submitted and how many namespaces and definitions it released. */
    public Round round() {
        Budget budget = new Budget(maxItems, maxBytes);
        List<AdmissionTransport.Submission> deletes = new ArrayList<>();
        int released = 0;
        for (StoredResource ns : view.withKeyPrefix(NAMESPACE_PREFIX)) {
            String name = ns.key().substring(NAMESPACE_PREFIX.length());
            if (ns.syncStatus() == SyncStatus.Deleting && !collect(namespaceContents(name), name, budget, deletes)
                && release(ns, ApiOnlyKinds.NAMESPACE_FINALIZER)) {
                released++;
            }
        }
        for (StoredResource crd : view.withKeyPrefix(DEFINITION_PREFIX)) {
            String kind = crd.syncStatus() == SyncStatus.Deleting
                ? ApiOnlyKinds.definedKind(Values.toJson(crd.resource().getSpec())) : null;
            String name = crd.key().substring(DEFINITION_PREFIX.length());
            if (crd.syncStatus() == SyncStatus.Deleting
                && (kind == null || !collect(List.of(kind + "/"), name, budget, deletes))
                && release(crd, ApiOnlyKinds.DEFINITION_FINALIZER)) {
                released++;
            }
        }
        if (!deletes.isEmpty()) {
            try {
                store.deleteAll(deletes);
            } catch (ApiError unavailable) {
                // Admission cannot take writes now (starting, or its producer failing): the next round tries again,
                // and the loop stays running, so readiness does not follow a passing hiccup of the writes.
                LOG.warn("Deletes of contents not submitted this round: {}", unavailable.getMessage());
                return new Round(0, released);
            }
        }
        return new Round(deletes.size(), released);
    }

    /** What a round did. */
    public record Round(int deletes, int released) {
    }

    /** The key prefixes of a namespace's objects: one per kind, since keys lead with the kind. */
    private List<String> namespaceContents(String namespace) {
        List<String> prefixes = new ArrayList<>();
        for (String kind : view.kinds()) {
            prefixes.add(kind + "/" + namespace + "/");
        }
        return prefixes;
    }

    /**
     * Adds the deletes of the objects under {@code prefixes} that the budget still takes; answers whether anything is
     * left under them (being deleted, or past the budget).
     */
    private boolean collect(List<String> prefixes, String owner, Budget budget, List<AdmissionTransport.Submission> deletes) {
        boolean left = false;
        for (String prefix : prefixes) {
            for (StoredResource r : view.withKeyPrefix(prefix)) {
                if (r.syncStatus() == SyncStatus.Orphaned) {
                    continue;
                }
                left = true;
                if (r.syncStatus() != SyncStatus.Deleting && budget.take(r.storedBytes())) {
                    deletes.add(new AdmissionTransport.Submission(r.key(), null, "content-deleter-" + owner, null,
                        Propagation.Background.name()));
                }
            }
        }
        return left;
    }

    /** Removes the owner's {@code finalizer}, so that it goes; false when another write came first or it has none. */
    private boolean release(StoredResource ns, String finalizer) {
        ResourceKey key = ResourceKey.parse(ns.key());
        List<String> finalizers = ns.resource().getMetadata().getFinalizers();
        if (!finalizers.contains(finalizer)) {
            // Released already; another finalizer holds it, which is its owner's to remove.
            return false;
        }
        ArrayNode rest = JsonNodeFactory.instance.arrayNode();
        for (String f : finalizers) {
            if (!finalizer.equals(f)) {
                rest.add(f);
            }
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.putObject("metadata").set("finalizers", rest);
        try {
            store.write(key, io.statesync.rest.RestContext.patch(key, PatchType.MergePatch, patch, ns.resourceVersion()));
            return true;
        } catch (ApiError e) {
            LOG.debug("{} not released this round: {}", key, e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A round's allowance of deletes, by count and by stored bytes; the first always fits. */
    private static final class Budget {
        private int items;
        private long bytes;
        private boolean first = true;

        Budget(int items, long bytes) {
            this.items = items;
            this.bytes = bytes;
        }

        boolean take(long size) {
            if (items == 0 || !first && size > bytes) {
                return false;
            }
            first = false;
            items--;
            bytes -= size;
            return true;
        }
    }
}
