package io.statesync.topology.internal;

import io.statesync.avro.Correction;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.gc.DependentsIndex;

/** The task's sinks, with the dependents index kept from every Resource published and every deletion completed. */
final class IndexingOutput implements ReconcileEngine.Output {

    private final ReconcileEngine.Output sinks;
    private final DependentsIndex index;

    IndexingOutput(ReconcileEngine.Output sinks, DependentsIndex index) {
        this.sinks = sinks;
        this.index = index;
    }

    @Override
    public void resource(String key, Resource r, long ts) {
        sinks.resource(key, r, ts);
        // A Resource that names no owner is in no index: it costs the index nothing.
        if (r != null && !r.getMetadata().getOwnerReferences().isEmpty()) {
            index.published(key, r, ts);
        }
    }

    @Override
    public void deleted(String key, Resource last, long ts) {
        sinks.deleted(key, last, ts);
        index.deleted(key, last, ts);
    }

    @Override
    public void correction(String key, Correction c, long ts) {
        sinks.correction(key, c, ts);
    }

    @Override
    public void event(String key, ReconcileEvent e, long ts) {
        sinks.event(key, e, ts);
    }

    @Override
    public void answer(String key, ReconcileEvent e, String answerId, long ts) {
        sinks.answer(key, e, answerId, ts);
    }
}
