package io.statesync.registry;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.registry.internal.RegistryTransport;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

import static io.statesync.registry.internal.RegistryTransport.segment;

/**
 * A {@link SchemaRegistryClient} over the Confluent REST API, for Confluent Schema Registry and Apicurio's
 * {@code /apis/ccompat/v7}. Ids found by register, lookup or fetch are cached for the life of the client, since
 * a registry never changes what an id means.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {

    private record SubjectSchema(String subject, Schema schema) {
    }

    private final RegistryTransport http;
    private final Map<SubjectSchema, Integer> registered = new ConcurrentHashMap<>();
    private final Map<SubjectSchema, RegisteredSchema> lookedUp = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> byId = new ConcurrentHashMap<>();

    public HttpSchemaRegistryClient(RegistryClientConfig config) {
        this.http = new RegistryTransport(config);
    }

    @Override
    public int register(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        Integer cached = registered.get(key);
        if (cached != null) {
            return cached;
        }
        int id;
        try {
            id = http.send("POST", "/subjects/" + segment(subject) + "/versions", schemaBody(schema)).path("id").asInt(-1);
        } catch (SchemaRegistryException e) {
            // Two clients registering the same new schema at once: some registries (Apicurio) answer the loser 409.
            // If the schema is there now, that is success; a real incompatibility is not found and is rethrown.
            if (e.status() != 409) {
                throw e;
            }
            id = lookup(subject, schema).map(RegisteredSchema::id).orElseThrow(() -> e);
        }
        requireId(id, "register under " + subject);
        registered.put(key, id);
        byId.putIfAbsent(id, schema);
        return id;
    }

    @Override
    public Optional<RegisteredSchema> lookup(String subject, Schema schema) {
        SubjectSchema key = new SubjectSchema(subject, schema);
        RegisteredSchema cached = lookedUp.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        JsonNode answer;
        try {
            answer = http.send("POST", "/subjects/" + segment(subject), schemaBody(schema));
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
        RegisteredSchema found = new RegisteredSchema(subject, answer.path("id").asInt(-1), answer.path("version").asInt(-1));
        requireId(found.id(), "look up under " + subject);
        lookedUp.put(key, found);
        byId.putIfAbsent(found.id(), schema);
        return Optional.of(found);
    }

    @Override
    public Schema getById(int id) {
        Schema cached = byId.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = http.send("GET", "/schemas/ids/" + id, null);
        String type = answer.path("schemaType").asText("AVRO");
        if (!"AVRO".equals(type)) {
            throw new SchemaParseException("Schema id " + id + " is " + type + ", not AVRO");
        }
        Schema schema = new Schema.Parser().parse(answer.path("schema").asText());
        Schema raced = byId.putIfAbsent(id, schema);
        return raced != null ? raced : schema;
    }

    @Override
    public CompatibilityLevel getCompatibility(String subject) {
        if (subject == null) {
            return level(http.send("GET", "/config", null));
        }
        try {
            return level(http.send("GET", "/config/" + segment(subject), null));
        } catch (SchemaRegistryException e) {
            // Confluent answers 40408 and Apicurio 40401 for a subject with no level of its own.
            if (e.isNotFound()) {
                return getCompatibility(null);
            }
            throw e;
        }
    }

    @Override
    public void setCompatibility(String subject, CompatibilityLevel level) {
        String path = subject == null ? "/config" : "/config/" + segment(subject);
        http.send("PUT", path, Map.of("compatibility", level.name()));
    }

    @Override
    public boolean isCompatible(String subject, Schema schema) {
        try {
            return http.send("POST", "/compatibility/subjects/" + segment(subject) + "/versions/latest",
                schemaBody(schema)).path("is_compatible").asBoolean(false);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                return true;
            }
            throw e;
        }
    }

    private static Map<String, String> schemaBody(Schema schema) {
        return Map.of("schema", schema.toString());
    }

    private static CompatibilityLevel level(JsonNode answer) {
        String level = answer.path("compatibilityLevel").asText(answer.path("compatibility").asText(""));
        try {
            return CompatibilityLevel.valueOf(level);
        } catch (IllegalArgumentException e) {
            throw new SchemaRegistryException("Schema registry reported an unknown compatibility level '" + level + "'",
                200, SchemaRegistryException.NO_ERROR_CODE, e);
        }
    }

    private static void requireId(int id, String what) {
        if (id < 0) {
            throw new SchemaRegistryException("Schema registry answered " + what + " without an id", 200,
                SchemaRegistryException.NO_ERROR_CODE, null);
        }
    }
}
