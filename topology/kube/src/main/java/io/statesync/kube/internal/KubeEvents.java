package io.statesync.kube.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.topology.ResourceKey;
import io.statesync.view.EventHistory;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;

/**
 * Read-only Events, core {@code v1} and {@code events.k8s.io/v1}, built from the server's event history, so that
 * {@code kubectl describe} and {@code kubectl get events} show each resource's reconcile history. The field selectors
 * kubectl describe sends ({@code involvedObject.name}, {@code .kind}, {@code .namespace}, {@code .uid}; {@code regarding.*}
 * for events.k8s.io) pick the resource without a scan.
 */
public final class KubeEvents {

    /** One event with the object it is about. */
    private record Involved(ResourceKey key, String uid, EventHistory.Entry entry) {
    }

    private static final Map<String, Function<Involved, String>> CORE = Map.of(
        "involvedObject.name", i -> i.key().name(), "involvedObject.kind", i -> i.key().kind(),
        "involvedObject.namespace", i -> i.key().namespace(), "involvedObject.uid", Involved::uid,
        "metadata.namespace", i -> i.key().namespace(), "type", i -> type(i.entry()), "reason", i -> i.entry().reason());
    private static final Map<String, Function<Involved, String>> EVENTS_API = Map.of(
        "regarding.name", i -> i.key().name(), "regarding.kind", i -> i.key().kind(),
        "regarding.namespace", i -> i.key().namespace(), "regarding.uid", Involved::uid,
        "metadata.namespace", i -> i.key().namespace(), "type", i -> type(i.entry()), "reason", i -> i.entry().reason());

    private final RestContext context;

    public KubeEvents(RestContext context) {
        this.context = context;
    }

    public void core(Context ctx) throws InterruptedException {
        respond(ctx, false);
    }

    public void eventsApi(Context ctx) throws InterruptedException {
        respond(ctx, true);
    }

    private void respond(Context ctx, boolean eventsApi) throws InterruptedException {
        if (KubePaths.flag(ctx.queryParam("watch"))) {
            throw KubeStatus.methodNotAllowed("events cannot be watched here; list them");
        }
        if (!context.events().ready()) {
            throw ApiError.unavailable("the event history is still loading", 1);
        }
        int limit = Collections.limit(ctx.queryParam("limit"));
        int from = EventsPage.start(ctx.queryParam("continue"));
        String namespace = ctx.pathParamMap().get("namespace");
        String selector = ctx.queryParam("fieldSelector");
        Predicate<Involved> fields = Selectors.fields(selector, eventsApi ? EVENTS_API : CORE);
        ResourceView view = context.caughtUpView();
        List<ObjectNode> events = new ArrayList<>();
        for (StoredResource r : candidates(view, namespace, selector, eventsApi)) {
            String uid = r.resource().getMetadata().getUid();
            ResourceKey key = ResourceKey.parse(r.key());
            for (EventHistory.Entry e : context.events().events(r.key())) {
                Involved i = new Involved(key, uid, e);
                if (fields.test(i)) {
                    events.add(eventsApi ? eventsApiEvent(i) : coreEvent(i));
                }
            }
        }
        String accept = ctx.header("Accept");
        String rv = KubeResourceVersion.position(view.position());
        EventsPage page = EventsPage.of(events, from, limit, ctx.queryParam("limit") != null,
            context.config().getLong(io.statesync.server.ServerConfig.LIST_MAX_BYTES));
        ObjectNode out = accept != null && accept.contains("as=Table") ? table(page.items(), rv) : list(page.items(), rv, eventsApi);
        if (page.next() != null) {
            ((ObjectNode) out.get("metadata")).put("continue", page.next());
        }
        ctx.json(out);
    }

    /** The resources whose events are asked for: the one the selector names, else every one in the namespace. */
    private static List<StoredResource> candidates(ResourceView view, String namespace, String selector, boolean eventsApi) {
        String prefix = eventsApi ? "regarding." : "involvedObject.";
        Map<String, String> named = equalities(selector);
        String kind = named.get(prefix + "kind");
        String name = named.get(prefix + "name");
        String ns = namespace != null ? namespace : named.get(prefix + "namespace");
        if (kind != null && name != null && ns != null) {
            StoredResource r = view.get(kind + "/" + ns + "/" + name);
            return r == null ? List.of() : List.of(r);
        }
        return view.list(r -> ns == null || r.isInNamespace(ns), null, Integer.MAX_VALUE).items();
    }

    private static Map<String, String> equalities(String selector) {
        Map<String, String> out = new java.util.HashMap<>();
        if (selector != null) {
            for (String term : selector.split(",")) {
                int eq = term.indexOf('=');
                if (eq > 0 && term.charAt(eq - 1) != '!') {
                    out.put(term.substring(0, eq).trim(), term.substring(term.startsWith("==", eq) ? eq + 2 : eq + 1).trim());
                }
            }
        }
        return out;
    }

    private static ObjectNode coreEvent(Involved i) {
        EventHistory.Entry e = i.entry();
        ObjectNode n = ResourceHandlers.MAPPER.createObjectNode().put("apiVersion", "v1").put("kind", "Event");
        metadata(n, i);
        involved(n.putObject("involvedObject"), i);
        n.put("reason", e.reason()).put("message", e.message()).put("type", type(e)).put("count", e.count())
            .put("firstTimestamp", KubeObjects.rfc3339(e.firstTimestamp())).put("lastTimestamp", KubeObjects.rfc3339(e.lastTimestamp()));
        n.putObject("source").put("component", "statesync");
        return n.put("reportingComponent", "statesync").put("reportingInstance", "");
    }

    private static ObjectNode eventsApiEvent(Involved i) {
        EventHistory.Entry e = i.entry();
        ObjectNode n = ResourceHandlers.MAPPER.createObjectNode().put("apiVersion", KubePaths.EVENTS_GROUP_VERSION).put("kind", "Event");
        metadata(n, i);
        involved(n.putObject("regarding"), i);
        return n.put("eventTime", e.lastTimestamp().truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString())
            .put("reason", e.reason()).put("note", e.message()).put("type", type(e)).put("action", e.reason())
            .put("reportingController", "statesync").put("reportingInstance", "statesync")
            .put("deprecatedCount", e.count()).put("deprecatedFirstTimestamp", KubeObjects.rfc3339(e.firstTimestamp()))
            .put("deprecatedLastTimestamp", KubeObjects.rfc3339(e.lastTimestamp()));
    }

    private static void metadata(ObjectNode n, Involved i) {
        EventHistory.Entry e = i.entry();
        String identity = i.key() + "\n" + e.type() + "\n" + e.reason() + "\n" + e.message();
        UUID uid = UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8));
        n.putObject("metadata").put("name", i.key().name() + "." + Long.toHexString(uid.getMostSignificantBits() & Long.MAX_VALUE))
            .put("namespace", i.key().namespace()).put("uid", uid.toString())
            .put("resourceVersion", e.resourceVersion() == null ? "" : e.resourceVersion())
            .put("creationTimestamp", KubeObjects.rfc3339(e.firstTimestamp()));
    }

    private static void involved(ObjectNode o, Involved i) {
        o.put("apiVersion", KubePaths.GROUP_VERSION).put("kind", i.key().kind()).put("namespace", i.key().namespace())
            .put("name", i.key().name()).put("uid", i.uid());
        if (i.entry().resourceVersion() != null) {
            o.put("resourceVersion", i.entry().resourceVersion());
        }
    }

    /** Kubernetes has two event types: refusals and warnings are Warning, the rest Normal. */
    static String type(EventHistory.Entry e) {
        return switch (e.type()) {
            case "Warning", "Conflict", "Invalid" -> "Warning";
            default -> "Normal";
        };
    }

    private static ObjectNode list(List<ObjectNode> events, String rv, boolean eventsApi) {
        ObjectNode out = ResourceHandlers.MAPPER.createObjectNode().put("apiVersion", eventsApi ? KubePaths.EVENTS_GROUP_VERSION : "v1")
            .put("kind", "EventList");
        out.putObject("metadata").put("resourceVersion", rv);
        out.putArray("items").addAll(events);
        return out;
    }

    /** LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, as kubectl get events prints them. */
    private static ObjectNode table(List<ObjectNode> events, String rv) {
        ObjectNode t = ResourceHandlers.MAPPER.createObjectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        t.putObject("metadata").put("resourceVersion", rv);
        ArrayNode columns = t.putArray("columnDefinitions");
        for (String c : new String[] {"Last Seen", "Type", "Reason", "Object", "Message"}) {
            columns.addObject().put("name", c).put("type", "string").put("format", "").put("description", c).put("priority", 0);
        }
        ArrayNode rows = t.putArray("rows");
        for (ObjectNode e : events) {
            ObjectNode regarding = (ObjectNode) (e.has("involvedObject") ? e.get("involvedObject") : e.get("regarding"));
            String last = e.has("lastTimestamp") ? e.get("lastTimestamp").asText() : e.get("deprecatedLastTimestamp").asText();
            ObjectNode row = rows.addObject();
            row.putArray("cells").add(Tables.age(last)).add(e.get("type").asText()).add(e.get("reason").asText())
                .add(regarding.get("kind").asText().toLowerCase(java.util.Locale.ROOT) + "/" + regarding.get("name").asText())
                .add(e.has("message") ? e.get("message").asText() : e.get("note").asText());
            row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1")
                .set("metadata", e.get("metadata"));
        }
        return t;
    }
}
