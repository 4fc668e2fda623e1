package io.statesync.rest;

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
 * {@code v}.
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

    public String encode() {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("v", VERSION);
        ArrayNode o = n.putArray("o");
        for (long off : offsets) {
            o.add(off);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Decodes a token.
     *
     * @throws IllegalArgumentException when the text is not a token of this version (the REST API answers 400)
     */
    public static WatchPosition decode(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("empty position");
        }
        try {
            JsonNode n = MAPPER.readTree(Base64.getUrlDecoder().decode(token.trim()));
            if (n == null || n.path("v").asInt(-1) != VERSION || !n.path("o").isArray()) {
                throw new IllegalArgumentException("not a statesync watch position: " + abbreviate(token));
            }
            long[] offsets = new long[n.get("o").size()];
            for (int i = 0; i < offsets.length; i++) {
                JsonNode o = n.get("o").get(i);
                if (!o.canConvertToLong()) {
                    throw new IllegalArgumentException("not a statesync watch position: " + abbreviate(token));
                }
                offsets[i] = o.asLong();
            }
            return new WatchPosition(offsets);
        } catch (java.io.IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage() != null
                && iae.getMessage().startsWith("not a statesync")) {
                throw iae;
            }
            throw new IllegalArgumentException("not a statesync watch position: " + abbreviate(token), e);
        }
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
