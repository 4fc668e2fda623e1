package io.statesync.rest.internal;

import java.time.Duration;
import java.util.function.Supplier;

import io.statesync.avro.Resource;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.StoredObjects;
import io.statesync.topology.ResourceKey;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchPosition;

/** The store's reads from this instance's resource view, brought up to the committed end of the resources topic. */
public final class ViewObjects implements StoredObjects {

    /** How long a dry run waits for the view to reach the committed end before deciding on what it has. */
    private static final Duration CATCH_UP_WAIT = Duration.ofSeconds(5);

    private final ResourceView view;
    private final Supplier<WatchPosition> committedEndOffsets;

    public ViewObjects(ResourceView view, Supplier<WatchPosition> committedEndOffsets) {
        this.view = view;
        this.committedEndOffsets = committedEndOffsets;
    }

    @Override
    public Copy committed(ResourceKey key) throws InterruptedException {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        boolean stale = !view.awaitPosition(committedEndOffsets.get(), CATCH_UP_WAIT);
        StoredResource r = view.get(key.toString());
        return new Copy(r == null || r.resource().getMetadata().getGeneration() == 0 ? null : r.resource(), stale);
    }

    @Override
    public Resource atVersion(ResourceKey key, long version, Duration wait) throws InterruptedException {
        if (!view.ready()) {
            return null;
        }
        StoredResource r = view.awaitVersion(key.toString(), version, wait);
        return r == null ? null : r.resource();
    }
}
