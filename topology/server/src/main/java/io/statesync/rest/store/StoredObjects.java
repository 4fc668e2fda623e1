package io.statesync.rest.store;

import java.time.Duration;

import io.statesync.avro.Resource;
import io.statesync.topology.ResourceKey;

/**
 * The store's reads of what admission wrote: the instance's resource view, which follows the resources topic.
 * A dry run decides against the newest committed copy; an answered write is read back at its version.
 */
public interface StoredObjects {

    /** The newest committed copy of a key (null when there is none), and whether the wait for it ran out. */
    record Copy(Resource resource, boolean stale) {
    }

    /**
     * The key's copy once the view has read what was committed when this was called; {@code stale} when it did not
     * catch up within the wait. An orphan placeholder (generation 0) counts as none.
     *
     * @throws io.statesync.rest.ApiError 503 while the view is loading
     */
    Copy committed(ResourceKey key) throws InterruptedException;

    /** The key's object at {@code version} or newer, once the view shows it within {@code wait}; null otherwise. */
    Resource atVersion(ResourceKey key, long version, Duration wait) throws InterruptedException;
}
