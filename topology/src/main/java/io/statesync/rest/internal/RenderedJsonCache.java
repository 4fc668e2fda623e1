package io.statesync.rest.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import io.statesync.avro.Resource;

/**
 * The JSON bytes of recently read resources, per key and resourceVersion, so that repeated reads of an unchanged
 * object write bytes instead of rendering it again. Direct-mapped (one slot per hash), so its memory is bounded by
 * the slot count whatever the number of resources, and a lookup takes no lock; a collision only costs a render.
 */
public final class RenderedJsonCache {

    private record Slot(String key, String version, byte[] json) {
    }

    private final AtomicReferenceArray<Slot> slots;
    private final int mask;
    private final Function<Resource, byte[]> render;

    /** @param slots a power of two */
    public RenderedJsonCache(int slots, Function<Resource, byte[]> render) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.mask = slots - 1;
        this.render = render;
    }

    /** The JSON of {@code r}, the object the view holds for {@code key}; the caller must not change the array. */
    public byte[] json(String key, Resource r) {
        String version = r.getMetadata().getResourceVersion();
        int i = spread(key.hashCode()) & mask;
        Slot s = slots.get(i);
        if (s != null && version != null && s.version().equals(version) && s.key().equals(key)) {
            return s.json();
        }
        byte[] json = render.apply(r);
        if (version != null) {
            slots.set(i, new Slot(key, version, json));
        }
        return json;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
