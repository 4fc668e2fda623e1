package io.statesync.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.registry.internal.AvroCompatibility;
import org.apache.avro.Schema;

/**
 * An in-process registry for tests ({@code mock://scope} URLs): the same scope name gives the same instance
 * within the JVM. It behaves like Apicurio's Confluent API where tests can see it: ids belong to the schema
 * text, registering again returns the same id, and the subject's compatibility level (BACKWARD unless set)
 * is enforced with a status-409 {@link SchemaRegistryException}.
 */
public final class MockSchemaRegistry implements SchemaRegistryClient {

    private static final Map<String, MockSchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private record Version(int id, int version, Schema schema) {
    }

    private final Map<String, List<Version>> subjects = new HashMap<>();
    private final Map<String, Integer> idsByText = new HashMap<>();
    private final Map<Integer, Schema> byId = new HashMap<>();
    private final Map<String, CompatibilityLevel> levels = new HashMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    private final AtomicInteger calls = new AtomicInteger();

    /** The registry of a scope, created on first use. */
    public static MockSchemaRegistry forScope(String scope) {
        return SCOPES.computeIfAbsent(scope, s -> new MockSchemaRegistry());
    }

    /** Forgets a scope, so that its next use starts empty. */
    public static void dropScope(String scope) {
        SCOPES.remove(scope);
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        calls.incrementAndGet();
        String text = schema.toString();
        List<Version> versions = subjects.computeIfAbsent(subject, s -> new ArrayList<>());
        for (Version v : versions) {
            if (v.schema().toString().equals(text)) {
                return v.id();
            }
        }
        List<String> problems = AvroCompatibility.problems(levelOf(subject), schema,
            versions.stream().map(Version::schema).toList());
        if (!problems.isEmpty()) {
            throw new SchemaRegistryException("Schema being registered is incompatible with an earlier schema for "
                + "subject \"" + subject + "\" (" + levelOf(subject) + "): " + String.join("; ", problems), 409, 409, null);
        }
        int id = idsByText.computeIfAbsent(text, t -> idsByText.size() + 1);
        byId.putIfAbsent(id, schema);
        versions.add(new Version(id, versions.size() + 1, schema));
        return id;
    }

    @Override
    public synchronized Optional<RegisteredSchema> lookup(String subject, Schema schema) {
        calls.incrementAndGet();
        String text = schema.toString();
        return subjects.getOrDefault(subject, List.of()).stream()
            .filter(v -> v.schema().toString().equals(text))
            .findFirst()
            .map(v -> new RegisteredSchema(subject, v.id(), v.version()));
    }

    @Override
    public synchronized Schema getById(int id) {
        calls.incrementAndGet();
        Schema schema = byId.get(id);
        if (schema == null) {
            throw new SchemaRegistryException("Schema " + id + " not found", 404, 40403, null);
        }
        return schema;
    }

    @Override
    public synchronized CompatibilityLevel getCompatibility(String subject) {
        calls.incrementAndGet();
        return subject == null ? globalLevel : levelOf(subject);
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        calls.incrementAndGet();
        if (subject == null) {
            globalLevel = level;
        } else {
            levels.put(subject, level);
        }
    }

    @Override
    public synchronized boolean isCompatible(String subject, Schema schema) {
        calls.incrementAndGet();
        List<Schema> versions = subjects.getOrDefault(subject, List.of()).stream().map(Version::schema).toList();
        return AvroCompatibility.problems(levelOf(subject), schema, versions).isEmpty();
    }

    /** How many client calls this registry has answered: a test's view of the callers' caching. */
    public int calls() {
        return calls.get();
    }

    private CompatibilityLevel levelOf(String subject) {
        return levels.getOrDefault(subject, globalLevel);
    }
}
