package io.statesync.view;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A position in statesync.resources: for each partition, the offset of the next record to read. Lists return
 * it as {@code metadata.resourceVersion} and watches resume from it. The token is opaque to clients:
 * base64url of {@code {"v":1,"o":[offset of partition 0, ...]}}, so that its form may change later under a new
 * {@code v}. A watch event's id is a {@link WatchCursor}, which adds a key to a position under {@code "v":2}.
 */
public final class WatchPosition {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int VERSION = 1;

    private final long[] offsets;

    public WatchPosition(long[] offsets) {
        for (long o : offsets) {
            if (o < 0) {
                throw new IllegalArgumentException("offsets must not be negative");
            }
        }
        this.offsets = offsets.clone();
    }

    public int partitions() {
        return offsets.length;
    }

    public long offset(int partition) {
        return offsets[partition];
    }

    public long[] offsets() {
        return offsets.clone();
    }

    /** The position after a record at {@code offset} of {@code partition} was delivered. */
    public WatchPosition advance(int partition, long nextOffset) {
        long[] next = offsets.clone();
        next[partition] = Math.max(next[partition], nextOffset);
        return new WatchPosition(next);
    }

    /** Per partition the later of this position and {@code other} (of the same partitions). */
    public WatchPosition merge(WatchPosition other) {
        long[] next = offsets.clone();
        for (int p = 0; p < next.length && p < other.offsets.length; p++) {
            next[p] = Math.max(next[p], other.offsets[p]);
        }
        return new WatchPosition(next);
    }

    /** Whether this position is at or after {@code other} in every partition both have. */
    public boolean covers(WatchPosition other) {
        for (int p = 0; p < offsets.length && p < other.offsets.length; p++) {
            if (offsets[p] < other.offsets[p]) {
                return false;
            }
        }
        return true;
    }

    public String encode() {
        return base64(toJson(VERSION));
    }

    /**
     * Decodes a token.
     *
     * @throws IllegalArgumentException when the text is not a token of this version (the REST API answers 400)
     */
    public static WatchPosition decode(String token) {
        JsonNode n = readToken(token);
        if (n.path("v").asInt(-1) != VERSION) {
            throw notAPosition(token, null);
        }
        return new WatchPosition(offsets(n, token));
    }

    /** The JSON object inside a token of any version, which carries {@code v}; refused as {@link #decode} refuses. */
    public static JsonNode readToken(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("empty position");
        }
        try {
            JsonNode n = MAPPER.readTree(Base64.getUrlDecoder().decode(token.trim()));
            if (n == null || !n.isObject()) {
                throw notAPosition(token, null);
            }
            return n;
        } catch (java.io.IOException | RuntimeException e) {
            throw notAPosition(token, e);
        }
    }

    /** The offsets under {@code o} of a token's JSON: whole numbers, none negative. */
    static long[] offsets(JsonNode n, String token) {
        JsonNode o = n.path("o");
        if (!o.isArray()) {
            throw notAPosition(token, null);
        }
        long[] offsets = new long[o.size()];
        for (int i = 0; i < offsets.length; i++) {
            if (!o.get(i).canConvertToLong() || !o.get(i).isIntegralNumber() || o.get(i).asLong() < 0) {
                throw notAPosition(token, null);
            }
            offsets[i] = o.get(i).asLong();
        }
        return offsets;
    }

    /** The JSON of a token of version {@code version}, with this position's offsets under {@code o}. */
    ObjectNode toJson(int version) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("v", version);
        ArrayNode o = n.putArray("o");
        for (long off : offsets) {
            o.add(off);
        }
        return n;
    }

    /** A token's text: base64url, unpadded, of its JSON. */
    public static String base64(ObjectNode json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.toString().getBytes(StandardCharsets.UTF_8));
    }

    static IllegalArgumentException notAPosition(String token, Exception cause) {
        return new IllegalArgumentException("not a statesync watch position: " + abbreviate(token), cause);
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WatchPosition p && Arrays.equals(offsets, p.offsets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(offsets);
    }

    @Override
    public String toString() {
        return Arrays.toString(offsets);
    }
}
