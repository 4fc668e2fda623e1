package io.statesync.connect.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;

/**
 * The last listed items as {@code key -> fingerprint} of what was reported (state, status, generation, uid and
 * ack, never the timestamp). It is stored in the source offset as one JSON string, so a restarted task neither
 * re-sends unchanged items nor misses items deleted while it was down.
 */
public final class SeenSet {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> fingerprints;

    private SeenSet(Map<String, String> fingerprints) {
        this.fingerprints = fingerprints;
    }

    public static SeenSet empty() {
        return new SeenSet(Map.of());
    }

    /** Decodes the offset form; a null or unreadable offset is an empty set (the next poll reports everything). */
    public static SeenSet decode(String encoded) {
        if (encoded == null) {
            return empty();
        }
        try {
            return new SeenSet(Map.copyOf(JSON.readValue(encoded, new TypeReference<Map<String, String>>() { })));
        } catch (JsonProcessingException e) {
            return empty();
        }
    }

    public static SeenSet of(Map<String, ObservedState> reports) {
        Map<String, String> out = new HashMap<>();
        reports.forEach((key, report) -> out.put(key, fingerprint(report)));
        return new SeenSet(Map.copyOf(out));
    }

    public String encode() {
        try {
            return JSON.writeValueAsString(new TreeMap<>(fingerprints));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serializes", e);
        }
    }

    /** True when the report differs from what was last reported for its key. */
    public boolean changed(String key, ObservedState report) {
        return !Objects.equals(fingerprints.get(key), fingerprint(report));
    }

    public boolean contains(String key) {
        return fingerprints.containsKey(key);
    }

    public Iterable<String> keys() {
        return fingerprints.keySet();
    }

    public int size() {
        return fingerprints.size();
    }

    static String fingerprint(ObservedState r) {
        String canonical = Values.toJson(r.getState()) + "|" + Values.toJson(r.getStatus()) + "|"
            + r.getObservedGeneration() + "|" + r.getUid() + "|" + r.getAckCommandId() + "|" + (r.getState() == null ? "absent" : "present");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
