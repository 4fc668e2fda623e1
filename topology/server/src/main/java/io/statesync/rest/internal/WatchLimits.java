package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.rest.ApiError;

/**
 * The caps on open watches: per instance and per bearer token (per client address without auth). A watch takes a
 * {@link Permit} before it writes a byte and returns it when it ends; past a cap the request is answered 429 with
 * Retry-After, so one client cannot hold every connection the instance is willing to keep open.
 */
public final class WatchLimits {

    /** Seconds a refused client is told to wait: watches end at their timeout or when their client leaves. */
    static final int RETRY_AFTER_SECONDS = 5;

    private final int maxOpen;
    private final int maxPerToken;
    private final AtomicInteger open = new AtomicInteger();
    /** Open watches per holder; an entry leaves when its count drops to zero, so the map is bounded by maxOpen. */
    private final ConcurrentHashMap<String, Integer> perHolder = new ConcurrentHashMap<>();

    public WatchLimits(int maxOpen, int maxPerToken) {
        this.maxOpen = maxOpen;
        this.maxPerToken = maxPerToken;
    }

    /** One open watch; {@link #close} gives it back, once. */
    public final class Permit implements AutoCloseable {
        private final String holder;
        private boolean closed;

        private Permit(String holder) {
            this.holder = holder;
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                perHolder.computeIfPresent(holder, (k, n) -> n <= 1 ? null : n - 1);
                open.decrementAndGet();
            }
        }
    }

    /**
     * A permit for a watch of the client that sent {@code authorization} (null without a token) from
     * {@code remoteAddress}; 429 past either cap.
     */
    public Permit acquire(String authorization, String remoteAddress) {
        if (open.incrementAndGet() > maxOpen) {
            open.decrementAndGet();
            throw instanceFull();
        }
        String holder = holder(authorization, remoteAddress);
        boolean[] admitted = {false};
        perHolder.compute(holder, (k, n) -> {
            int now = n == null ? 0 : n;
            if (now >= maxPerToken) {
                return n;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            open.decrementAndGet();
            throw holderFull();
        }
        return new Permit(holder);
    }

    /**
     * The 429 that {@link #acquire} would throw now, without taking a permit: for a client that asks for a WebSocket
     * before it falls back to the HTTP stream, which then takes the permit.
     */
    public void refuseIfFull(String authorization, String remoteAddress) {
        if (open.get() >= maxOpen) {
            throw instanceFull();
        }
        if (perHolder.getOrDefault(holder(authorization, remoteAddress), 0) >= maxPerToken) {
            throw holderFull();
        }
    }

    private ApiError instanceFull() {
        return ApiError.tooManyRequests("this instance has watch.max.open=" + maxOpen + " watches open; retry later",
            RETRY_AFTER_SECONDS);
    }

    private ApiError holderFull() {
        return ApiError.tooManyRequests("this client has watch.max.open.per.token=" + maxPerToken
            + " watches open; close one or retry later", RETRY_AFTER_SECONDS);
    }

    /** Watches open now. */
    public int open() {
        return open.get();
    }

    /** The token's digest (so the map holds no secret), or the address when there is none. */
    private static String holder(String authorization, String remoteAddress) {
        if (authorization == null || authorization.isBlank()) {
            return "addr:" + remoteAddress;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(authorization.trim().getBytes(StandardCharsets.UTF_8));
            return "token:" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
