package io.statesync.registry;

import java.util.Map;

/** Picks the registry client that a configuration asks for. */
public final class SchemaRegistryClients {

    /** URL scheme of the in-process test registry: {@code mock://<scope>}. */
    public static final String MOCK_SCHEME = "mock://";

    private SchemaRegistryClients() {
    }

    /**
     * A {@link MockSchemaRegistry} for a {@code mock://scope} URL, else an {@link HttpSchemaRegistryClient}
     * configured from the {@link RegistryClientConfig} keys.
     *
     * @throws IllegalArgumentException when {@code schema.registry.url} is missing or a setting is invalid
     */
    public static SchemaRegistryClient forConfig(Map<String, ?> config) {
        Object url = config.get(RegistryClientConfig.URL);
        if (url == null || url.toString().isBlank()) {
            throw new IllegalArgumentException(RegistryClientConfig.URL + " is required");
        }
        String first = url.toString().split(",")[0].trim();
        if (first.startsWith(MOCK_SCHEME)) {
            return MockSchemaRegistry.forScope(first.substring(MOCK_SCHEME.length()));
        }
        return new HttpSchemaRegistryClient(RegistryClientConfig.fromMap(config));
    }
}
