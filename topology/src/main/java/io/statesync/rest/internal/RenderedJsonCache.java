package io.statesync.rest.internal;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import io.statesync.avro.Resource;

/**
 * The JSON bytes of recently read resources, per key and resourceVersion, so that repeated reads of an unchanged
 * object write bytes instead of rendering it again. Direct-mapped (one slot per hash), so its memory is bounded by
 * the slot count whatever the number of resources, and a lookup takes no lock; a collision only costs a render.
 * A key may sit in its slot or the neighbouring one (two-way), which keeps collisions among hot keys rare.
 */
public final class RenderedJsonCache {

    private record Slot(String key, String version, byte[] json) {
    }

    private final AtomicReferenceArray<Slot> slots;
    private final int mask;
    private final Function<Resource, byte[]> render;

    /** @param slots a power of two, at least 2 */
    public RenderedJsonCache(int slots, Function<Resource, byte[]> render) {
        if (slots < 2 || Integer.bitCount(slots) != 1) {
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
        int pair = i ^ 1;
        Slot s = slots.get(i);
        if (matches(s, key, version)) {
            return s.json();
        }
        Slot t = slots.get(pair);
        if (matches(t, key, version)) {
            return t.json();
        }
        byte[] json = render.apply(r);
        if (version != null) {
            // Two ways per key: two hot keys on one slot then both stay cached instead of evicting each other.
            boolean useFirst = s == null || s.key().equals(key) || (t != null && !t.key().equals(key));
            slots.set(useFirst ? i : pair, new Slot(key, version, json));
        }
        return json;
    }

    private static boolean matches(Slot s, String key, String version) {
        return s != null && version != null && s.version().equals(version) && s.key().equals(key);
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
