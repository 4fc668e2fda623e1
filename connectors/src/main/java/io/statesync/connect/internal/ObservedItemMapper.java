package io.statesync.connect.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps a JSON list response to ObservedState reports through configurable JSON pointers. */
public final class ObservedItemMapper {

    private static final Logger LOG = LoggerFactory.getLogger(ObservedItemMapper.class);

    /** The pointers; a null default means the item is skipped when its pointer finds nothing. */
    public record Pointers(String items, String kind, String kindDefault, String namespace, String namespaceDefault,
                           String name, String state, String generation, String uid, String status, String ack) {
    }

    private final JsonPointer items;
    private final JsonPointer kind;
    private final String kindDefault;
    private final JsonPointer namespace;
    private final String namespaceDefault;
    private final JsonPointer name;
    private final JsonPointer state;
    private final JsonPointer generation;
    private final JsonPointer uid;
    private final JsonPointer status;
    private final JsonPointer ack;
    private final String reporter;

    public ObservedItemMapper(Pointers p, String reporter) {
        this.items = JsonPointer.compile(p.items());
        this.kind = JsonPointer.compile(p.kind());
        this.kindDefault = p.kindDefault();
        this.namespace = JsonPointer.compile(p.namespace());
        this.namespaceDefault = p.namespaceDefault();
        this.name = JsonPointer.compile(p.name());
        this.state = JsonPointer.compile(p.state());
        this.generation = JsonPointer.compile(p.generation());
        this.uid = JsonPointer.compile(p.uid());
        this.status = JsonPointer.compile(p.status());
        this.ack = JsonPointer.compile(p.ack());
        this.reporter = reporter;
    }

    /** The reports by {@code kind/namespace/name}, in list order; items without a kind or name are skipped. */
    public Map<String, ObservedState> map(JsonNode response, Instant observedAt) {
        JsonNode list = response.at(items);
        if (!list.isArray()) {
            throw new IllegalArgumentException("No JSON array at items pointer '" + items + "'");
        }
        Map<String, ObservedState> out = new LinkedHashMap<>();
        for (JsonNode item : list) {
            String k = text(item.at(kind), kindDefault);
            String ns = text(item.at(namespace), namespaceDefault);
            String n = text(item.at(name), null);
            if (k == null || ns == null || n == null) {
                LOG.warn("Skipping an item without kind, namespace or name: {}", abbreviate(item));
                continue;
            }
            out.put(k + "/" + ns + "/" + n, report(item, k, ns, n, observedAt));
        }
        return out;
    }

    private ObservedState report(JsonNode item, String k, String ns, String n, Instant observedAt) {
        JsonNode s = item.at(state);
        JsonNode st = item.at(status);
        JsonNode g = item.at(generation);
        return ObservedState.newBuilder()
            .setKind(k)
            .setNamespace(ns)
            .setName(n)
            .setUid(text(item.at(uid), null))
            .setObservedGeneration(g.canConvertToLong() ? g.asLong() : g.isTextual() ? parseLong(g.asText()) : 0L)
            .setState(s.isMissingNode() || s.isNull() ? null : Values.fromJson(s))
            .setStatus(st.isMissingNode() || st.isNull() ? null : Values.fromJson(st))
            .setConditions(new ArrayList<>(List.of()))
            .setObservedAt(observedAt)
            .setReporter(reporter)
            .setAckCommandId(text(item.at(ack), null))
            .build();
    }

    private static String text(JsonNode node, String fallback) {
        return node.isValueNode() && !node.isNull() && !node.asText().isEmpty() ? node.asText() : fallback;
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0L;
        }
    }

    private static String abbreviate(JsonNode item) {
        String s = item.toString();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
