package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A resource key {@code kind/namespace/name}. kind is the kind's name, {@code [A-Z][A-Za-z0-9]{0,62}}, qualified by
 * its API group as {@code Name.group} unless the group is {@link #DEFAULT_GROUP} (so that every key written before
 * groups existed keeps its bytes), with {@link #CORE_GROUP_ALIAS} standing for Kubernetes' core group; namespace is a
 * DNS-1123 subdomain, or empty for a cluster-scoped kind; name is a DNS-1123 subdomain. Every other string is invalid
 * input.
 */
public record ResourceKey(String kind, String namespace, String name) {

    /** The group of a kind written without one. */
    public static final String DEFAULT_GROUP = "statesync.io";
    /** How a key writes Kubernetes' core group, whose name is empty (its {@code v1 Namespace}, say). */
    public static final String CORE_GROUP_ALIAS = "core";

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

    /** The kind qualified by its group as keys write it: the bare name for {@link #DEFAULT_GROUP}. */
    public static String qualifiedKind(String kindName, String group) {
        if (DEFAULT_GROUP.equals(group)) {
            return kindName;
        }
        return kindName + "." + (group.isEmpty() ? CORE_GROUP_ALIAS : group);
    }

    /** The kind's API group: {@link #DEFAULT_GROUP} for a bare kind, empty for the core group. */
    public static String groupOf(String kind) {
        int dot = kind.indexOf('.');
        if (dot < 0) {
            return DEFAULT_GROUP;
        }
        String group = kind.substring(dot + 1);
        return CORE_GROUP_ALIAS.equals(group) ? "" : group;
    }

    /** The kind's name without its group. */
    public static String nameOf(String kind) {
        int dot = kind.indexOf('.');
        return dot < 0 ? kind : kind.substring(0, dot);
    }

    /** This key's API group (see {@link #groupOf}). */
    public String group() {
        return groupOf(kind);
    }

    /** This key's kind name without its group. */
    public String kindName() {
        return nameOf(kind);
    }

    /** Whether the key names a cluster-scoped object, one with no namespace. */
    public boolean clusterScoped() {
        return namespace.isEmpty();
    }

    /** Why the parts are not a valid key, or null when they are. */
    public static String problem(String kind, String namespace, String name) {
        if (!isValidKind(kind)) {
            return "kind must match [A-Z][A-Za-z0-9]{0,62}, optionally followed by '.' and its API group (a DNS-1123 "
                + "subdomain other than " + DEFAULT_GROUP + "), got " + quote(kind);
        }
        if (namespace == null || !namespace.isEmpty() && !isSubdomain(namespace)) {
            return "namespace must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253), or empty "
                + "for a cluster-scoped kind, got " + quote(namespace);
        }
        if (!isSubdomain(name)) {
            return "name must be a DNS-1123 subdomain (lowercase letters, digits, '-' and '.', at most 253), got " + quote(name);
        }
        return null;
    }

    /**
     * {@code [A-Z][A-Za-z0-9]{0,62}}, optionally followed by {@code .group}, a DNS-1123 subdomain that is not
     * {@link #DEFAULT_GROUP} (its kinds have one spelling, the bare one). Every input record's key and every event's key
     * is checked, and a regular expression allocates a matcher (and, for a loop, its state) per check;
     * {@code ResourceKeyTest} holds these checks to the regular expressions.
     */
    public static boolean isValidKind(String kind) {
        if (kind == null) {
            return false;
        }
        int dot = kind.indexOf('.');
        if (dot < 0) {
            return isKindName(kind, kind.length());
        }
        String group = kind.substring(dot + 1);
        return isKindName(kind, dot) && isSubdomain(group) && !DEFAULT_GROUP.equals(group);
    }

    /** Whether the first {@code length} characters of {@code kind} are a kind's name. */
    private static boolean isKindName(String kind, int length) {
        if (length == 0 || length > MAX_KIND || !isAsciiUpper(kind.charAt(0))) {
            return false;
        }
        for (int i = 1; i < length; i++) {
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
