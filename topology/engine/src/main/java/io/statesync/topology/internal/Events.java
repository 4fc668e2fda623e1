package io.statesync.topology.internal;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.topology.ResourceKey;

/** Builds {@link ReconcileEvent}s: admission answers carry the request id, the others describe a transition. */
final class Events {

    ReconcileEvent admission(EventType type, String reason, String message, ReconcileEngine.Write w, Resource r,
                             String resourceVersion, long now) {
        return base(type, reason, message, w.resourceKey(), now).setRequestId(w.requestId())
            .setUid(r == null ? null : r.getMetadata().getUid()).setResourceVersion(resourceVersion)
            .setGeneration(r == null ? 0 : r.getMetadata().getGeneration()).build();
    }

    ReconcileEvent invalid(String key, ResourceKey rk, String requestId, String reason, String message, long now) {
        ReconcileEvent.Builder b = base(EventType.Invalid, reason, message, rk, now).setRequestId(requestId);
        if (rk == null && key != null) {
            b.setName(key.length() > 253 ? key.substring(0, 253) : key);
        }
        return b.build();
    }

    /** The transition events come with every convergence, so they skip the builder's per-instance copying. */
    ReconcileEvent about(EventType type, String reason, String message, Resource r, Long durationMs, long now) {
        var m = r.getMetadata();
        return new ReconcileEvent(UUID.randomUUID().toString(), type, reason, message == null ? "" : message,
            m.getKind(), m.getNamespace(), m.getName(), m.getUid(), null, m.getResourceVersion(), m.getGeneration(),
            durationMs, Instant.ofEpochMilli(now), List.of());
    }

    private static ReconcileEvent.Builder base(EventType type, String reason, String message, ResourceKey rk, long now) {
        return ReconcileEvent.newBuilder().setEventId(UUID.randomUUID().toString()).setType(type).setReason(reason)
            .setMessage(message == null ? "" : message)
            .setKind(rk == null ? "" : rk.kind()).setNamespace(rk == null ? "" : rk.namespace())
            .setName(rk == null ? "" : rk.name()).setTimestamp(Instant.ofEpochMilli(now));
    }
}
