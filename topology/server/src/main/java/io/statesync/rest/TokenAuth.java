package io.statesync.rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * Bearer-token access control with the roles reader and writer (writer may also read). Tokens are kept only as
 * SHA-256 digests and compared with {@link MessageDigest#isEqual} against every entry, so neither the comparison
 * nor the number of comparisons depends on where a guess first differs. Tokens are never logged or echoed.
 */
public final class TokenAuth {

    public enum Role { READER, WRITER }

    private record Entry(byte[] digest, Role role) {
    }

    private final List<Entry> entries;

    private TokenAuth(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** From {@code auth.tokens} and {@code auth.tokens.file}, merged. */
    public static TokenAuth fromConfig(AppConfig config) {
        List<String> specs = new ArrayList<>();
        Password inline = config.getPassword(ServerConfig.AUTH_TOKENS);
        if (inline != null) {
            specs.addAll(List.of(inline.value().split(",")));
        }
        String file = config.getString(ServerConfig.AUTH_TOKENS_FILE);
        if (!file.isEmpty()) {
            try {
                specs.addAll(Files.readAllLines(Path.of(file), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new IllegalStateException("Cannot read " + ServerConfig.AUTH_TOKENS_FILE + " " + file + ": " + e.getMessage());
            }
        }
        return parse(specs);
    }

    /**
     * Parses {@code token:role} entries; blank lines and {@code #} comments are skipped.
     *
     * @throws IllegalArgumentException for an entry without a role or with an unknown one (the token is not shown)
     */
    public static TokenAuth parse(List<String> specs) {
        List<Entry> entries = new ArrayList<>();
        int n = 0;
        for (String raw : specs) {
            n++;
            String s = raw.trim();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            int colon = s.lastIndexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("auth token entry " + n + " is not token:role");
            }
            String role = s.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            if (!role.equals("reader") && !role.equals("writer")) {
                throw new IllegalArgumentException("auth token entry " + n + " has role '" + role + "'; use reader or writer");
            }
            entries.add(new Entry(sha256(s.substring(0, colon).trim()), role.equals("writer") ? Role.WRITER : Role.READER));
        }
        return new TokenAuth(entries);
    }

    /**
     * A digest of every configured token digest and role, in a fixed order: the same on every instance with the same
     * tokens, and no help in finding one. The instances' forward credential is derived from it when no
     * {@code forward.secret} is set.
     */
    public byte[] fingerprint() {
        List<String> lines = new ArrayList<>();
        for (Entry e : entries) {
            lines.add(java.util.HexFormat.of().formatHex(e.digest) + ":" + e.role);
        }
        java.util.Collections.sort(lines);
        return sha256(String.join("\n", lines));
    }

    /** The role name ({@code reader} or {@code writer}) of a header's token; writer when auth is off, null when invalid. */
    String roleName(String authorizationHeader) {
        Role role = enabled() ? roleOf(authorizationHeader) : Role.WRITER;
        return role == null ? null : role.name().toLowerCase(Locale.ROOT);
    }

    /** With no tokens the API is open (and RestServer insists on a loopback bind). */
    public boolean enabled() {
        return !entries.isEmpty();
    }

    /**
     * Checks an {@code Authorization} header for a role.
     *
     * @throws ApiError 401 without a valid bearer token, 403 when the token's role is too weak
     */
    public void require(String authorizationHeader, Role needed) {
        if (!enabled()) {
            return;
        }
        Role granted = roleOf(authorizationHeader);
        if (granted == null) {
            throw ApiError.unauthorized("a valid bearer token is required");
        }
        if (needed == Role.WRITER && granted != Role.WRITER) {
            throw ApiError.forbidden("this token has the reader role; writes need writer");
        }
    }

    /** The role of the header's token, or null. Visits every entry, whatever matches. */
    public Role roleOf(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        byte[] offered = sha256(authorizationHeader.substring(7).trim());
        Role found = null;
        for (Entry e : entries) {
            if (MessageDigest.isEqual(e.digest, offered) && (found == null || e.role == Role.WRITER)) {
                found = e.role;
            }
        }
        return found;
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }
}
