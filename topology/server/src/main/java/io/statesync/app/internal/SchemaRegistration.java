package io.statesync.app.internal;

import java.util.Map;

import io.statesync.registry.SchemaRegistryClient;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopicSchemas;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers the value schema of every topic statesync owns, on its own thread, until it succeeds: a registry that is
 * down at start is waited for, not a reason to fail the start, and until then {@link #problem()} keeps the instance
 * out of readiness. Without it a producer that only looks up the latest schema could not write to a fresh install
 * before statesync itself had written to that topic.
 */
public final class SchemaRegistration implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaRegistration.class);
    private static final long FIRST_RETRY_MS = 200;
    private static final long MAX_RETRY_MS = 5_000;

    private final SchemaRegistryClient registry;
    private final TopicNames topics;
    private final Thread thread;
    private volatile boolean registered;
    private volatile String lastFailure = "not tried yet";

    public SchemaRegistration(SchemaRegistryClient registry, TopicNames topics) {
        this.registry = registry;
        this.topics = topics;
        this.thread = new Thread(this::registerUntilDone, "statesync-schema-registration");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Why the instance is not ready on this account, or null once every schema is registered. */
    public String problem() {
        return registered ? null : "topic value schemas not registered yet (" + lastFailure + ")";
    }

    private void registerUntilDone() {
        long t0 = System.nanoTime();
        long backoff = FIRST_RETRY_MS;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Map<String, Integer> ids = TopicSchemas.register(registry, topics);
                registered = true;
                LOG.info("Registered the value schemas of {} topics in {} ms: {}", ids.size(),
                    (System.nanoTime() - t0) / 1_000_000, ids);
                return;
            } catch (RuntimeException e) {
                lastFailure = e.getMessage();
                LOG.warn("Could not register the topic value schemas, retrying in {} ms: {}", backoff, e.getMessage());
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(backoff * 2, MAX_RETRY_MS);
        }
    }

    /** Stops retrying and closes the registry client. */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        registry.close();
    }
}
