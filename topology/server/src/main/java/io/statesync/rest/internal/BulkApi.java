package io.statesync.rest.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.PatchType;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.reconciler.Propagation;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.AdmissionTransport;
import io.statesync.rest.store.ResourceStore;
import io.statesync.rest.store.WriteResult;
import io.statesync.topology.ResourceKey;

/**
 * {@code POST /api/v1/bulk}: many writes in one request. Every document is admitted on its own, with its own
 * precondition and its own result, so partial success is normal; the documents are produced together and their
 * answers awaited together, which is what makes a bulk write cheaper than as many single requests.
 */
public final class BulkApi {

    public static final String REQUEST_KIND = "BulkWrite";
    public static final String RESULT_KIND = "BulkWriteResult";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final AppConfig config;
    private final ResourceStore store;

    public BulkApi(AppConfig config, ResourceStore store) {
        this.config = config;
        this.store = store;
    }

    /** One document of the request, parsed: the write to submit, or the error that refused it before admission. */
    private record Item(ResourceKey key, DesiredState desired, boolean delete, String expected, ApiError error,
                        String propagation) {
        Item(ResourceKey key, DesiredState desired, boolean delete, String expected, ApiError error) {
            this(key, desired, delete, expected, error, null);
        }
    }

    public void bulk(Context ctx) throws InterruptedException {
        Requests.requireContentType(ctx, "application/json");
        JsonNode body = BodyReader.json(ctx, config.getInt(ServerConfig.HTTP_MAX_BODY_BYTES));
        JsonNode docs = body.path("items");
        if (!docs.isArray()) {
            throw ApiError.badRequest("the body must be {\"kind\": \"" + REQUEST_KIND + "\", \"items\": [...]}");
        }
        int max = config.getInt(ServerConfig.BULK_MAX_ITEMS);
        if (docs.size() > max) {
            throw ApiError.badRequest("a bulk write carries at most " + max + " documents (bulk.max.items), got " + docs.size());
        }
        List<Item> items = new ArrayList<>(docs.size());
        Applier applier = applier(ctx, docs);
        docs.forEach(d -> items.add(parse(d, applier)));
        String manager = FieldManagers.of(ctx);
        items.forEach(it -> {
            if (it.desired() != null && it.desired().getFieldManager() == null) {
                it.desired().setFieldManager(manager);
            }
        });
        boolean dryRun = Requests.dryRun(ctx);
        List<ObjectNode> results = dryRun ? dryRun(items) : submit(items);
        ctx.json(response(results));
    }

    private List<ObjectNode> submit(List<Item> items) {
        List<AdmissionTransport.Submission> writes = new ArrayList<>();
        for (Item it : items) {
            if (it.error() == null) {
                writes.add(new AdmissionTransport.Submission(it.key().toString(), it.delete() ? null : it.desired(),
                    UUID.randomUUID().toString(), it.delete() ? it.expected() : null, it.propagation()));
            }
        }
        List<ResourceStore.Outcome> outcomes = store.writeAll(writes);
        List<ObjectNode> out = new ArrayList<>(items.size());
        int next = 0;
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            ApiError refused = it.error() != null ? it.error() : outcomes.get(next).refused();
            out.add(refused != null ? failed(i, it.key(), refused) : written(i, it.key(), outcomes.get(next).result()));
            next += it.error() == null ? 1 : 0;
        }
        return out;
    }

    private List<ObjectNode> dryRun(List<Item> items) throws InterruptedException {
        List<ObjectNode> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            if (it.error() != null) {
                out.add(failed(i, it.key(), it.error()));
                continue;
            }
            try {
                out.add(written(i, it.key(), it.delete() ? store.dryRunDelete(it.key(), it.expected())
                    : store.dryRunWrite(it.key(), it.desired())));
            } catch (ApiError refused) {
                out.add(failed(i, it.key(), refused));
            }
        }
        return out;
    }

    private static ObjectNode written(int index, ResourceKey key, WriteResult w) {
        return result(index, key, w.code(), w.reason()).set("object", w.object());
    }

    /** The manager and force of the request's apply items; null when it has none. */
    private record Applier(String manager, boolean force) {
    }

    private static Applier applier(Context ctx, JsonNode docs) {
        for (JsonNode d : docs) {
            if (d.path("op").asText("").equals("apply")) {
                return new Applier(FieldManagers.ofApply(ctx), Requests.force(ctx, true));
            }
        }
        Requests.force(ctx, false);
        return null;
    }

    /** One document: {@code {"op": "put"|"create"|"patch"|"apply"|"delete", "object": {...}, "patch": ..., "patchType": "merge"|"json", "propagationPolicy": "Background"|"Foreground"|"Orphan"}}. */
    private static Item parse(JsonNode doc, Applier applier) {
        ResourceKey key = null;
        try {
            JsonNode object = doc.path("object");
            if (!object.isObject()) {
                throw ApiError.badRequest("each item needs an 'object' with kind and metadata.namespace and metadata.name");
            }
            key = keyOf(object);
            String op = doc.path("op").asText("put");
            String expected = object.path("metadata").path("resourceVersion").asText(null);
            return switch (op) {
                case "put", "create" -> {
                    DesiredState d = ResourceJson.desired(key, object, expected);
                    d.setCreateOnly(op.equals("create"));
                    yield new Item(key, d, false, expected, null);
                }
                case "patch" -> new Item(key, patchOf(key, doc, expected), false, expected, null);
                case "apply" -> new Item(key, PatchRequests.apply(key, object.deepCopy(), null, applier.manager(),
                    applier.force()), false, expected, null);
                case "delete" -> new Item(key, null, true, expected, null, propagation(doc.path("propagationPolicy")));
                default -> throw ApiError.badRequest("op must be put, create, patch, apply or delete, not '" + op + "'");
            };
        } catch (ApiError e) {
            return new Item(key, null, false, null, e);
        }
    }

    /** A delete item's propagationPolicy, as the DELETE endpoint takes it; absent is Background. */
    private static String propagation(JsonNode given) {
        String name = given.isTextual() ? given.asText() : null;
        return Propagation.parse(name).filter(p -> name == null || p.name().equals(name)).map(Propagation::name)
            .orElseThrow(() -> ApiError.unprocessable("propagationPolicy must be Background, Foreground or Orphan, not '"
                + name + "'"));
    }

    private static DesiredState patchOf(ResourceKey key, JsonNode doc, String expected) {
        String type = doc.path("patchType").asText("merge");
        JsonNode patch = doc.get("patch");
        PatchType pt = switch (type) {
            case "merge" -> PatchType.MergePatch;
            case "json" -> PatchType.JsonPatch;
            default -> throw ApiError.badRequest("patchType must be merge or json, not '" + type + "'");
        };
        if (patch == null || (pt == PatchType.MergePatch ? !patch.isObject() : !patch.isArray())) {
            throw ApiError.badRequest("a patch item needs 'patch': an object for merge, an array for json");
        }
        return PatchRequests.carrying(key, pt, patch, expected);
    }

    private static ResourceKey keyOf(JsonNode object) {
        JsonNode meta = object.path("metadata");
        try {
            return ResourceKey.of(object.path("kind").asText(""), meta.path("namespace").asText(""), meta.path("name").asText(""));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    private static ObjectNode result(int index, ResourceKey key, int code, String reason) {
        ObjectNode r = JSON.objectNode().put("index", index);
        if (key != null) {
            r.put("key", key.toString());
        }
        return r.put("code", code).put("reason", reason);
    }

    private static ObjectNode failed(int index, ResourceKey key, ApiError e) {
        ObjectNode r = result(index, key, e.code(), e.reason());
        ObjectNode error = r.putObject("error");
        e.body().forEach((k, v) -> error.set(k, v instanceof Integer n ? JSON.numberNode(n) : JSON.textNode(String.valueOf(v))));
        return r;
    }

    private static ObjectNode response(List<ObjectNode> results) {
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", RESULT_KIND);
        long failed = results.stream().filter(r -> r.get("code").asInt() >= 400).count();
        out.putObject("summary").put("total", results.size()).put("succeeded", results.size() - failed).put("failed", failed);
        ArrayNode items = out.putArray("items");
        results.forEach(items::add);
        return out;
    }
}
