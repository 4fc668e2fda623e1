package io.statesync.rest.internal;

import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.KindPolicy;
import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.reconciler.RuleLimits;
import io.statesync.rest.KindPolicyJson;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code /api/v1/kinds}: kind policies, read from the global store and written to statesync.kinds. */
public final class KindsApi {

    private static final Map<String, String> FIELD_TYPES = fieldTypes();

    private static final Logger LOG = LoggerFactory.getLogger(KindsApi.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long VISIBLE_WAIT_MS = 5_000;

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final AdmissionClient writer;
    private final Supplier<ReadOnlyKeyValueStore<String, byte[]>> store;

    public KindsApi(AppConfig config, TopicNames topics, TopologySerdes serdes, AdmissionClient writer,
                    Supplier<ReadOnlyKeyValueStore<String, byte[]>> store) {
        this.config = config;
        this.topics = topics;
        this.serdes = serdes;
        this.writer = writer;
        this.store = store;
    }

    /**
     * Every policy that decodes; a stored record that does not (the registry is out, or it is not a policy) is left
     * out with a warning and named under {@code undecodable}, so that one bad record does not hide the others.
     */
    public void list(Context ctx) {
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "KindPolicyList");
        ArrayNode items = out.putArray("items");
        ArrayNode undecodable = JSON.arrayNode();
        try (KeyValueIterator<String, byte[]> it = store.get().all()) {
            it.forEachRemaining(kv -> {
                if (ApiOnlyKinds.definedKindOf(kv.key) != null) {
                    return; // a definition, which the Kubernetes API serves as a CustomResourceDefinition
                }
                try {
                    items.add(KindPolicyJson.toJson(decode(kv.value)));
                } catch (RuntimeException e) {
                    LOG.warn("Kind policy for {} does not decode; left out of the list: {}", kv.key, e.toString());
                    undecodable.add(JSON.objectNode().put("kind", kv.key).put("reason", String.valueOf(e.getMessage())));
                }
            });
        }
        if (!undecodable.isEmpty()) {
            out.set("undecodable", undecodable);
        }
        ctx.json(out);
    }

    /** The policies of {@code store} that decode, by kind; the others are skipped with a warning. */
    public static Map<String, KindPolicy> decodable(ReadOnlyKeyValueStore<String, byte[]> store,
                                                    Deserializer<KindPolicy> deserializer, String topic) {
        Map<String, KindPolicy> out = new java.util.LinkedHashMap<>();
        try (KeyValueIterator<String, byte[]> it = store.all()) {
            it.forEachRemaining(kv -> {
                if (ApiOnlyKinds.definedKindOf(kv.key) != null) {
                    return;
                }
                try {
                    out.put(kv.key, deserializer.deserialize(topic, kv.value));
                } catch (RuntimeException e) {
                    LOG.warn("Kind policy for {} does not decode; its kind is served without it: {}", kv.key, e.toString());
                }
            });
        }
        return out;
    }

    public void get(Context ctx) {
        String kind = kind(ctx);
        KindPolicy p;
        try {
            p = current(kind);
        } catch (RuntimeException e) {
            throw ApiError.unavailable("the policy of kind " + kind + " is stored but does not decode (" + e.getMessage()
                + "); retry, or replace it with PUT", 1);
        }
        if (p == null) {
            throw ApiError.notFound("no policy for kind " + kind + "; the defaults apply");
        }
        ctx.json(KindPolicyJson.toJson(p));
    }

    /** Writes the policy and waits briefly until this instance's global store shows it, so a GET right after sees it. */
    public void put(Context ctx) throws InterruptedException {
        String kind = kind(ctx);
        JsonNode body = BodyReader.document(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
        requireShape(body);
        KindPolicy policy;
        try {
            policy = KindPolicyJson.fromJson(body, kind, ruleLimits(config));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
        writer.putKind(kind, policy);
        long deadline = System.currentTimeMillis() + VISIBLE_WAIT_MS;
        while (!policy.equals(currentOrNull(kind)) && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        ctx.json(KindPolicyJson.toJson(policy));
    }

    /**
     * Field names and JSON types as in KindPolicy.avsc. The policy reader is lenient (a number as text, an unknown
     * field ignored), which would store a different policy from the one the client meant; the API refuses instead.
     */
    private static void requireShape(JsonNode body) {
        if (!body.isObject()) {
            throw ApiError.badRequest("a kind policy must be a JSON object");
        }
        for (Map.Entry<String, JsonNode> e : body.properties()) {
            JsonNode v = e.getValue();
            String expected = FIELD_TYPES.get(e.getKey());
            if (expected == null) {
                throw ApiError.badRequest("unknown field " + e.getKey() + "; a kind policy has " + FIELD_TYPES.keySet());
            }
            if (!v.isNull() && !hasType(v, expected)) {
                throw ApiError.badRequest(e.getKey() + " must be " + expected);
            }
        }
    }

    private static boolean hasType(JsonNode v, String expected) {
        return switch (expected) {
            case "a string" -> v.isTextual();
            case "a whole number" -> v.isIntegralNumber() && v.canConvertToLong();
            case "true or false" -> v.isBoolean();
            case "an array of strings" -> v.isArray() && allText(v);
            case "an array of objects" -> v.isArray() && allObjects(v);
            default -> v.isObject() && allText(v);
        };
    }

    private static boolean allObjects(JsonNode container) {
        for (JsonNode e : container) {
            if (!e.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static boolean allText(JsonNode container) {
        for (JsonNode e : container) {
            if (!e.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private KindPolicy currentOrNull(String kind) {
        try {
            return current(kind);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private KindPolicy current(String kind) {
        byte[] bytes = store.get().get(kind);
        return bytes == null ? null : decode(bytes);
    }

    private KindPolicy decode(byte[] bytes) {
        return serdes.kindPolicy().deserializer().deserialize(topics.kinds(), bytes);
    }

    /** The bounds of AppConfig's cel.* keys, with spec.max.bytes as the worst-case length of what a rule reads. */
    static RuleLimits ruleLimits(AppConfig config) {
        return new RuleLimits(config.getInt(ServerConfig.CEL_MAX_RULES), config.getInt(ServerConfig.CEL_MAX_RULE_BYTES),
            config.getLong(ServerConfig.CEL_MAX_ESTIMATED_COST), config.getLong(ServerConfig.CEL_MAX_ESTIMATED_POLICY_COST),
            config.getInt(AppConfig.SPEC_MAX_BYTES));
    }

    private static Map<String, String> fieldTypes() {
        Map<String, String> t = new java.util.LinkedHashMap<>();
        t.put("kind", "a string");
        t.put("ignoredFields", "an array of strings");
        t.put("listMergeKeys", "an object of strings");
        t.put("orphanPolicy", "a string");
        for (String ms : new String[] {"resyncPeriodMs", "correctionDeadlineMs", "backoffBaseMs", "backoffCapMs",
            "maxAttempts", "stalenessBoundMs"}) {
            t.put(ms, "a whole number");
        }
        t.put("strict", "true or false");
        t.put("strictTyping", "true or false");
        t.put("finalizers", "an array of strings");
        t.put("healthRules", "an array of objects");
        t.put("validationRules", "an array of objects");
        t.put("plural", "a string");
        t.put("singular", "a string");
        t.put("shortNames", "an array of strings");
        return java.util.Collections.unmodifiableMap(t);
    }

    private static String kind(Context ctx) {
        String kind = ctx.pathParam("kind");
        if (!ResourceKey.isValidKind(kind)) {
            throw ApiError.badRequest("kind must match [A-Z][A-Za-z0-9]{0,62}, got '" + kind + "'");
        }
        return kind;
    }
}
