package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A resource key {@code kind/namespace/name}. kind matches {@code [A-Z][A-Za-z0-9]{0,62}}; namespace and
 * name are DNS-1123 subdomains. Every other string is invalid input.
 */
public record ResourceKey(String kind, String namespace, String name) {

    private static final int MAX_KIND = 63;
    private static final int MAX_SUBDOMAIN = 253;

    public ResourceKey {
        String problem = problem(kind, namespace, name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    public static ResourceKey of(String kind, String namespace, String name) {
        return new ResourceKey(kind, namespace, name);
    }

    /** Parses {@code kind/namespace/name}; the exception message says what is wrong. */
    public static ResourceKey parse(String key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        String[] parts = key.split("/", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("key must be kind/namespace/name, got " + quote(key));
        }
        return new ResourceKey(parts[0], parts[1], parts[2]);
    }

    public static Optional<ResourceKey> tryParse(String key) {
        try {
            return Optional.of(parse(key));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Why the parts are not a valid key, or null when they are. */
    public static String problem(String kind, String namespace, String name) {
        if (!isValidKind(kind)) {
            return "kind must match [A-Z][A-Za-z0-9]{0,62}, got " + quote(kind);
        }
        if (!isSubdomain(namespace)) {
            return "namespace must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253), got " + quote(namespace);
        }
        if (!isSubdomain(name)) {
            return "name must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253), got " + quote(name);
        }
        return null;
    }

    /**
     * {@code [A-Z][A-Za-z0-9]{0,62}}. Every input record's key and every event's key is checked, and a regular
     * expression allocates a matcher (and, for a loop, its state) per check; {@code ResourceKeyTest} holds these
     * checks to the regular expressions.
     */
    public static boolean isValidKind(String kind) {
        if (kind == null || kind.isEmpty() || kind.length() > MAX_KIND || !isAsciiUpper(kind.charAt(0))) {
            return false;
        }
        for (int i = 1; i < kind.length(); i++) {
            char c = kind.charAt(i);
            if (!isAsciiUpper(c) && !isLowerOrDigit(c)) {
                return false;
            }
        }
        return true;
    }

    /** A DNS-1123 subdomain: dot-separated labels of {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, 253 characters at most. */
    public static boolean isSubdomain(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_SUBDOMAIN) {
            return false;
        }
        boolean labelStart = true;
        char prev = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' || c == '-') {
                // Neither starts a label, and a label does not end with '-'.
                if (labelStart || c == '.' && prev == '-') {
                    return false;
                }
                labelStart = c == '.';
            } else if (isLowerOrDigit(c)) {
                labelStart = false;
            } else {
                return false;
            }
            prev = c;
        }
        return !labelStart && prev != '-';
    }

    private static boolean isAsciiUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isLowerOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        String shown = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return "'" + new String(shown.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8) + "'";
    }

    @Override
    public String toString() {
        return kind + "/" + namespace + "/" + name;
    }
}
