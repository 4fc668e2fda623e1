package io.statesync.serde.internal;

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
final class RecentStrings {

    /** Strings longer than this (UUIDs and the like, which rarely repeat on a thread) are always new. */
    static final int MAX_BYTES = 32;
    /** About 100 KiB per thread when full. */
    static final int SLOTS = 1024;

    private final String[] strings = new String[SLOTS];
    private final byte[][] encodings = new byte[SLOTS][];

    /** The string that {@code length} UTF-8 bytes of {@code bytes} decode to; the same instance as last time if kept. */
    String decode(byte[] bytes, int length) {
        if (length > MAX_BYTES) {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
        int slot = slot(bytes, length);
        byte[] kept = encodings[slot];
        if (kept != null && Arrays.equals(kept, 0, kept.length, bytes, 0, length)) {
            return strings[slot];
        }
        String s = new String(bytes, 0, length, StandardCharsets.UTF_8);
        strings[slot] = s;
        encodings[slot] = Arrays.copyOf(bytes, length);
        return s;
    }

    private static int slot(byte[] bytes, int length) {
        int h = length;
        for (int i = 0; i < length; i++) {
            h = 31 * h + bytes[i];
        }
        return (h ^ (h >>> 10) ^ (h >>> 20)) & (SLOTS - 1);
    }
}
