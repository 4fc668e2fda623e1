package io.statesync.serde.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The short strings one thread decoded recently, by their UTF-8 bytes, so that a string decoded again is the instance
 * decoded before: map keys of specs, kinds, namespaces, reporters, condition reasons.
 *
 * <p>Why: a key's decoded state lives until its next event, about a second under load, so G1 copies every object in it
 * at each young collection; a state held some 40 strings (two objects each), most of them equal to a string of the
 * previous write. A string found here costs no allocation and no UTF-8 decoding, and its cached hash code makes the
 * compact maps' lookups cheaper.
 *
 * <p>Direct-mapped and fixed in size: a collision or a long string just decodes anew. Sound because strings are
 * immutable and nothing in statesync compares them by identity. One per decoder, so one per thread.
 */
public final class RecentStrings {

    /** Strings longer than this (UUIDs and the like, which rarely repeat on a thread) are always new. */
    static final int MAX_BYTES = 32;
    /** About 100 KiB per thread when full. */
    static final int SLOTS = 1024;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** Each slot's UTF-8 bytes and then its string, side by side so that a lookup touches one cache line. */
    private final Object[] slots = new Object[2 * SLOTS];

    /** The string that {@code length} UTF-8 bytes of {@code bytes} decode to; the same instance as last time if kept. */
    public String decode(byte[] bytes, int length) {
        if (length > MAX_BYTES) {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
        int at = 2 * slot(bytes, length);
        byte[] kept = (byte[]) slots[at];
        if (kept != null && Arrays.equals(kept, 0, kept.length, bytes, 0, length)) {
            return (String) slots[at + 1];
        }
        String s = new String(bytes, 0, length, StandardCharsets.UTF_8);
        slots[at] = Arrays.copyOf(bytes, length);
        slots[at + 1] = s;
        return s;
    }

    /**
     * Mixes the first and last eight bytes (fewer for a shorter string) and the length: no loop over the bytes, since
     * this runs for nearly every string decoded. Strings that agree there share a slot and take turns in it.
     */
    static int slot(byte[] bytes, int length) {
        long first;
        long last;
        if (length >= Long.BYTES) {
            first = (long) LONGS.get(bytes, 0);
            last = (long) LONGS.get(bytes, length - Long.BYTES);
        } else if (length >= Integer.BYTES) {
            first = (int) INTS.get(bytes, 0);
            last = (int) INTS.get(bytes, length - Integer.BYTES);
        } else {
            first = length == 0 ? 0 : bytes[0];
            last = length == 0 ? 0 : (bytes[length >> 1] & 0xFF) << 8 | (bytes[length - 1] & 0xFF);
        }
        long h = first * 0x9E3779B97F4A7C15L + last + length;
        h = (h ^ (h >>> 32)) * 0xD6E8FEB86659FD93L;
        return (int) (h ^ (h >>> 32)) & (SLOTS - 1);
    }
}
