package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.LongSupplier;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.javalin.http.Context;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * The instances' own credential for the reads they forward to a key's owner. A forward carries no caller token: the
 * forwarding instance has checked it already, and sends the caller's role with an HMAC-SHA256 signature over the
 * role, the method, the path and query and the time, keyed by {@code forward.secret} (or a key derived from the auth
 * tokens, which every instance with the same tokens derives alike).
 *
 * <p>Only a request whose signature verifies counts as forwarded ({@link #isForwarded}); the internal
 * {@code X-Statesync-*} headers a client sends are otherwise ignored, so none of them can skip the token check or
 * the routing.
 */
public final class ForwardCredential {

    public static final String ROLE_HEADER = "X-Statesync-Forwarded-Role";
    public static final String SIGNATURE_HEADER = "X-Statesync-Forwarded-Signature";
    /** Set by {@link #verify} alone: the one place a request is marked as forwarded. */
    private static final String FORWARDED_ATTRIBUTE = "statesync.forwarded.role";
    /** How far the signer's clock may be from ours; a captured forward is replayable only within it. */
    static final long MAX_SKEW_SECONDS = 300;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;
    private final LongSupplier epochSeconds;

    ForwardCredential(byte[] secret, LongSupplier epochSeconds) {
        this.key = new SecretKeySpec(sha256("statesync-forward-key\n", secret), ALGORITHM);
        this.epochSeconds = epochSeconds;
    }

    /**
     * From {@code forward.secret}; without it, from {@code tokensFingerprint} (a digest of every configured token and
     * its role) and the application id, so that only instances configured with the same tokens agree.
     */
    public static ForwardCredential fromConfig(AppConfig config, byte[] tokensFingerprint) {
        Password secret = config.getPassword(ServerConfig.FORWARD_SECRET);
        byte[] material = secret != null && !secret.value().isEmpty()
            ? ("configured\n" + secret.value()).getBytes(StandardCharsets.UTF_8)
            : sha256("derived\n" + config.getString(AppConfig.APPLICATION_ID) + "\n", tokensFingerprint);
        return new ForwardCredential(material, () -> System.currentTimeMillis() / 1000);
    }

    /** The header lines (each ending in CRLF) that mark {@code GET pathAndQuery} as a forward for {@code role}. */
    String headerLines(String pathAndQuery, String role) {
        long now = epochSeconds.getAsLong();
        return KeyRouter.FORWARDED_HEADER + ": 1\r\n" + ROLE_HEADER + ": " + role + "\r\n" + SIGNATURE_HEADER + ": " + now
            + "." + HexFormat.of().formatHex(mac(now, role, "GET", pathAndQuery)) + "\r\n";
    }

    /**
     * Marks the request as forwarded when its signature verifies, and returns the caller's role it carries
     * ({@code reader} or {@code writer}); null for every other request, which then needs its own token.
     */
    public String verify(Context ctx) {
        String signature = ctx.header(SIGNATURE_HEADER);
        if (signature == null) {
            return null;
        }
        String role = ctx.header(ROLE_HEADER);
        if (!verifies(signature, role, ctx.method().name(), Requests.pathAndQuery(ctx))) {
            return null;
        }
        ctx.attribute(FORWARDED_ATTRIBUTE, role);
        return role;
    }

    /** Whether {@link #verify} found this request to be another instance's forward. */
    public static boolean isForwarded(Context ctx) {
        return ctx.attribute(FORWARDED_ATTRIBUTE) != null;
    }

    boolean verifies(String signature, String role, String method, String pathAndQuery) {
        if (role == null || !(role.equals("reader") || role.equals("writer"))) {
            return false;
        }
        int dot = signature.indexOf('.');
        if (dot <= 0 || dot > 19) {
            return false;
        }
        try {
            long at = Long.parseLong(signature.substring(0, dot));
            if (Math.abs(epochSeconds.getAsLong() - at) > MAX_SKEW_SECONDS) {
                return false;
            }
            byte[] offered = HexFormat.of().parseHex(signature.substring(dot + 1));
            return MessageDigest.isEqual(mac(at, role, method, pathAndQuery), offered);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    private byte[] mac(long at, String role, String method, String pathAndQuery) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal((at + "\n" + role + "\n" + method + " " + pathAndQuery).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JRE", e);
        }
    }

    private static byte[] sha256(String label, byte[] material) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(label.getBytes(StandardCharsets.UTF_8));
            return d.digest(material);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
