package io.statesync.rest.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;

import io.statesync.avro.Resource;
import io.statesync.view.StoredResource;

/**
 * The JSON bytes of recently read resources, per key and resourceVersion, so that repeated reads of an unchanged
 * object write bytes instead of rendering it again. Direct-mapped (one slot per hash), so its memory is bounded by
 * the slot count whatever the number of resources, and a lookup takes no lock; a collision only costs a render.
 * A key may sit in its slot or the neighbouring one (two-way), which keeps collisions among hot keys rare.
 *
 * <p>The slots bound the count, {@code maxBytes} ({@code view.json.cache.bytes}) the bytes: a few large objects would
 * otherwise fill the heap with slots to spare. Past the budget a clock hand sweeps the slots and empties them until the
 * cache fits again; an object larger than the whole budget is rendered and not kept.
 */
public final class RenderedJsonCache {

    /** Slots of the cache the REST server shares between reads and watches: at most this many objects' JSON, within view.json.cache.bytes. */
    public static final int DEFAULT_SLOTS = 1 << 15;

    private record Slot(String key, String version, byte[] json) {
    }

    private final AtomicReferenceArray<Slot> slots;
    private final int shift;
    private final Function<Resource, byte[]> render;
    private final long maxBytes;
    /** The JSON bytes held in the slots; each swap of a slot adjusts it by the difference, so it stays exact. */
    private final AtomicLong bytes = new AtomicLong();
    /** Where the next sweep starts; racy on purpose, since two sweeps from one place only empty a slot more. */
    private int hand;

    /** @param slots a power of two, at least 2 */
    public RenderedJsonCache(int slots, Function<Resource, byte[]> render) {
        this(slots, Long.MAX_VALUE, render);
    }

    /** @param slots a power of two, at least 2; {@code maxBytes} the most JSON bytes kept (0 keeps none) */
    public RenderedJsonCache(int slots, long maxBytes, Function<Resource, byte[]> render) {
        if (slots < 2 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two: " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.shift = 32 - Integer.numberOfTrailingZeros(slots);
        this.render = render;
        this.maxBytes = maxBytes;
    }

    /** The JSON bytes the cache holds now. */
    public long bytes() {
        return bytes.get();
    }

    /** The JSON of {@code r}, the object the view holds for {@code key}; the caller must not change the array. */
    public byte[] json(String key, Resource r) {
        return json(key, r.getMetadata().getResourceVersion(), () -> r);
    }

    /** The JSON of a stored object; it is decoded only when its JSON is not cached. */
    public byte[] json(StoredResource r) {
        return json(r.key(), r.resourceVersion(), r::resource);
    }

    private byte[] json(String key, String version, Supplier<Resource> resource) {
        int i = slotOf(key);
        int pair = i ^ 1;
        Slot s = slots.get(i);
        if (matches(s, key, version)) {
            return s.json();
        }
        Slot t = slots.get(pair);
        if (matches(t, key, version)) {
            return t.json();
        }
        byte[] json = render.apply(resource.get());
        if (version != null && json.length <= maxBytes) {
            // Two ways per key: two hot keys on one slot then both stay cached instead of evicting each other.
            boolean useFirst = s == null || s.key().equals(key) || (t != null && !t.key().equals(key));
            int target = useFirst ? i : pair;
            Slot replaced = slots.getAndSet(target, new Slot(key, version, json));
            if (bytes.addAndGet(json.length - size(replaced)) > maxBytes) {
                sweep(target);
            }
        }
        return json;
    }

    /** Empties slots from the clock hand on, all but {@code keep}, until the cache fits its byte budget. */
    private void sweep(int keep) {
        int n = slots.length();
        int at = hand;
        for (int step = 0; step < n && bytes.get() > maxBytes; step++) {
            at = (at + 1) & (n - 1);
            if (at != keep) {
                bytes.addAndGet(-size(slots.getAndSet(at, null)));
            }
        }
        hand = at;
    }

    private static long size(Slot s) {
        return s == null ? 0 : s.json().length;
    }

    private static boolean matches(Slot s, String key, String version) {
        return s != null && version != null && s.version().equals(version) && s.key().equals(key);
    }

    /**
     * Fibonacci hashing: the top bits of the hash times 2^32 / phi. Keys that differ only in trailing digits
     * (app-1, app-2, ...) have String hashes that differ by small multiples of 31, so their low bits collide often
     * enough that many such keys miss on every round; multiplying spreads every bit into the top ones.
     */
    int slotOf(String key) {
        return (key.hashCode() * 0x9E3779B9) >>> shift;
    }
}
