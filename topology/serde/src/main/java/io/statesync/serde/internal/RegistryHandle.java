package io.statesync.serde.internal;

import java.util.Map;

import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryClients;

/**
 * The registry client of one serializer or deserializer: given, shared by its serde, or created from the
 * configuration; only a client created here is closed here.
 */
public final class RegistryHandle {

    private SchemaRegistryClient client;
    private boolean owned;

    /** @param given a client to use, or null to take one later */
    public RegistryHandle(SchemaRegistryClient given) {
        this.client = given;
    }

    /** Uses a client the caller owns, unless one is already set. */
    public void share(SchemaRegistryClient shared) {
        if (client == null) {
            client = shared;
        }
    }

    /** Creates a client from the configuration, unless one is already set. */
    public void configure(Map<String, ?> configs) {
        if (client == null) {
            client = SchemaRegistryClients.forConfig(configs);
            owned = true;
        }
    }

    public SchemaRegistryClient get(Object user) {
        if (client == null) {
            throw new IllegalStateException(user.getClass().getSimpleName() + " used before configure()");
        }
        return client;
    }

    public void close() {
        if (owned) {
            client.close();
        }
    }
}
