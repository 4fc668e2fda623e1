package io.statesync.agent;

import java.util.Objects;

/** The identity of a resource: {@code kind/namespace/name}, the record key on every statesync topic. */
public record ResourceRef(String kind, String namespace, String name) {

    public ResourceRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** Parses {@code kind/namespace/name}; namespaces and names never contain a slash. */
    public static ResourceRef parse(String key) {
        String[] parts = key.split("/", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
            throw new IllegalArgumentException("Not a kind/namespace/name key: " + key);
        }
        return new ResourceRef(parts[0], parts[1], parts[2]);
    }

    public String key() {
        return kind + "/" + namespace + "/" + name;
    }

    @Override
    public String toString() {
        return key();
    }
}
