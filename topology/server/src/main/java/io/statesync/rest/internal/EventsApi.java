package io.statesync.rest.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;
import io.statesync.view.EventHistory;

/** {@code GET .../{name}/events}: what happened to one resource, newest first, from this instance's event history. */
public final class EventsApi {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final EventHistory history;

    public EventsApi(EventHistory history) {
        this.history = history;
    }

    public void list(Context ctx) {
        ResourceKey key = Requests.key(ctx);
        if (!history.ready()) {
            throw ApiError.unavailable("the event history is still loading", 1);
        }
        ObjectNode out = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "EventList");
        ObjectNode involved = out.putObject("involvedObject");
        involved.put("kind", key.kind()).put("namespace", key.namespace()).put("name", key.name());
        ArrayNode items = out.putArray("items");
        for (EventHistory.Entry e : history.events(key.toString())) {
            items.addObject().put("type", e.type()).put("reason", e.reason()).put("message", e.message())
                .put("count", e.count()).put("firstTimestamp", e.firstTimestamp().toString())
                .put("lastTimestamp", e.lastTimestamp().toString()).put("resourceVersion", e.resourceVersion())
                .put("generation", e.generation());
        }
        ctx.json(out);
    }
}
