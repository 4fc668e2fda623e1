package io.statesync.rest.internal;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.avro.ReconcileEvent;

/**
 * The admission answers this instance awaits, each under an answer id generated here for one write: 128 bits from
 * a {@link SecureRandom}, so no client chooses, repeats or guesses it. The client's {@code X-Request-Id} plays no
 * part in matching: two writes that share one request id each get their own answer. An answer is also checked
 * against the key its write was for, so that a record claiming someone else's id for another key is ignored.
 */
final class PendingAnswers {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    /**
     * One awaited write: the id its record carries, the key it writes, the answer when it comes, and whether Kafka
     * acknowledged its record (then admission will reach it, however late).
     */
    record Pending(String id, String key, CompletableFuture<ReconcileEvent> answer, AtomicBoolean recorded) {
    }

    private final Map<String, Pending> byId = new ConcurrentHashMap<>();

    /** Registers a write of {@code key} before its record is produced, so that its answer can never come unclaimed. */
    Pending register(String key) {
        while (true) {
            Pending p = new Pending(newId(), key, new CompletableFuture<>(), new AtomicBoolean());
            if (byId.putIfAbsent(p.id(), p) == null) {
                return p;
            }
        }
    }

    /**
     * The pending write an answer record is for, removed from the waiting ones; null when the record carries no
     * answer id, an id nobody here waits for, or an id for another key.
     */
    CompletableFuture<ReconcileEvent> claim(String answerId, String recordKey) {
        if (answerId == null) {
            return null;
        }
        Pending p = byId.get(answerId);
        if (p == null || !Objects.equals(p.key(), recordKey) || !byId.remove(answerId, p)) {
            return null;
        }
        return p.answer();
    }

    /** The write was answered or given up on. */
    void forget(Pending p) {
        byId.remove(p.id(), p);
    }

    /** Cancels every waiting write (the instance closes). */
    void cancelAll() {
        byId.values().forEach(p -> p.answer().cancel(false));
        byId.clear();
    }

    int size() {
        return byId.size();
    }

    static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HEX.formatHex(bytes);
    }
}
