package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;

/**
 * Kubernetes' discovery documents: {@code /version}, {@code /api} and {@code /api/v1} (core v1, for Events),
 * {@code /apis}, the group and its version. {@code /api} and {@code /apis} answer the aggregated form
 * ({@code apidiscovery.k8s.io/v2 APIGroupDiscoveryList}, every resource in one document) to a client that asks for it,
 * as kubectl does; others get the unaggregated documents and read the group versions one by one.
 */
public final class Discovery {

    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
        "update", "watch");
    private static final String AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    /** A namespace has no deletecollection, in Kubernetes as here. */
    private static final List<String> NAMESPACE_VERBS = List.of("create", "delete", "get", "list", "patch", "update", "watch");
    private static final List<String> READ_VERBS = List.of("get", "list");

    private final KindCatalog kinds;

    public Discovery(KindCatalog kinds) {
        this.kinds = kinds;
    }

    public void version(Context ctx) {
        ctx.json(object().put("major", "1").put("minor", "32").put("gitVersion", "v1.32.0+statesync")
            .put("gitCommit", "").put("gitTreeState", "clean").put("buildDate", "1970-01-01T00:00:00Z")
            .put("goVersion", "").put("compiler", "").put("platform", "linux/amd64"));
    }

    public void api(Context ctx) {
        if (aggregated(ctx)) {
            ObjectNode group = discoveryGroup("", List.of("v1"));
            aggregatedKind(group.withArray("versions").get(0).withArray("resources"), KindCatalog.NAMESPACES, "v1");
            event(group.withArray("versions").get(0).withArray("resources"), true);
            respondAggregated(ctx, group);
            return;
        }
        ObjectNode n = object().put("kind", "APIVersions");
        n.putArray("versions").add("v1");
        n.putArray("serverAddressByClientCIDRs").addObject().put("clientCIDR", "0.0.0.0/0").put("serverAddress", ctx.host());
        ctx.json(n);
    }

    /** Core v1: namespaces, and Events, read-only. */
    public void coreV1(Context ctx) {
        ObjectNode n = resourceList("v1");
        resource(n.withArray("resources"), KindCatalog.NAMESPACES, "v1");
        event(n.withArray("resources"));
        ctx.json(n);
    }

    /** Every served group: statesync.io, the groups the CustomResourceDefinitions define, and events.k8s.io. */
    public void apis(Context ctx) {
        Map<String, List<String>> served = kinds.groups();
        if (aggregated(ctx)) {
            List<ObjectNode> groups = new ArrayList<>();
            List<KindCatalog.Kind> all = kinds.all();
            served.forEach((name, versions) -> groups.add(aggregatedGroup(name, versions, all)));
            ObjectNode events = discoveryGroup("events.k8s.io", List.of("v1"));
            event(events.withArray("versions").get(0).withArray("resources"), true);
            groups.add(events);
            respondAggregated(ctx, groups.toArray(ObjectNode[]::new));
            return;
        }
        ObjectNode n = object().put("kind", "APIGroupList").put("apiVersion", "v1");
        ArrayNode groups = n.putArray("groups");
        served.forEach((name, versions) -> groups.add(group(name, versions)));
        groups.add(group("events.k8s.io", List.of("v1")));
        ctx.json(n);
    }

    public void group(Context ctx) {
        List<String> versions = kinds.groups().get(ctx.pathParam("group"));
        if (versions == null) {
            throw ApiError.notFound("the server could not find the requested resource");
        }
        ctx.json(group(ctx.pathParam("group"), versions).put("kind", "APIGroup").put("apiVersion", "v1"));
    }

    public void eventsGroup(Context ctx) {
        ctx.json(group("events.k8s.io", List.of("v1")).put("kind", "APIGroup").put("apiVersion", "v1"));
    }

    public void eventsGroupVersion(Context ctx) {
        ObjectNode n = resourceList(KubePaths.EVENTS_GROUP_VERSION);
        event(n.withArray("resources"));
        ctx.json(n);
    }

    /** A group's version: every kind served in it, with its status subresource. */
    public void groupVersion(Context ctx) {
        String group = ctx.pathParam("group");
        String version = ctx.pathParam("version");
        List<KindCatalog.Kind> served = kinds.inGroupVersion(group, version);
        if (served.isEmpty() && !ResourceKey.DEFAULT_GROUP.equals(group)) {
            throw ApiError.notFound("the server could not find the requested resource");
        }
        ObjectNode n = resourceList(group + "/" + version);
        ArrayNode resources = n.withArray("resources");
        for (KindCatalog.Kind k : served) {
            resource(resources, k, version);
        }
        ctx.json(n);
    }

    /** A kind and, where {@code version} serves it, its status subresource in an unaggregated resource list. */
    private static void resource(ArrayNode resources, KindCatalog.Kind k, String version) {
        ObjectNode r = resources.addObject().put("name", k.plural()).put("singularName", k.singular())
            .put("namespaced", k.namespaced()).put("kind", k.kindName());
        verbsAndNames(r, k);
        if (!k.hasStatusSubresource(version)) {
            return;
        }
        ObjectNode status = resources.addObject().put("name", k.plural() + "/status").put("singularName", "")
            .put("namespaced", k.namespaced()).put("kind", k.kindName());
        ArrayNode statusVerbs = status.putArray("verbs").add("get");
        if (!KindCatalog.NAMESPACE_KIND.equals(k.kind())) {
            statusVerbs.add("patch").add("update");
        }
    }

    private static void event(ArrayNode resources) {
        event(resources, false);
    }

    /** Events, in the unaggregated or the aggregated form. */
    private static void event(ArrayNode resources, boolean aggregated) {
        ObjectNode r = resources.addObject();
        if (aggregated) {
            r.put("resource", "events").put("singularResource", "event").put("scope", "Namespaced");
            r.putObject("responseKind").put("group", "").put("version", "v1").put("kind", "Event");
        } else {
            r.put("name", "events").put("singularName", "event").put("namespaced", true).put("kind", "Event");
        }
        READ_VERBS.forEach(r.putArray("verbs")::add);
        r.putArray("shortNames").add("ev");
    }

    /** {@code application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList} among the accepted types. */
    static boolean aggregated(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept == null) {
            return false;
        }
        for (String type : accept.split(",")) {
            List<String> parts = List.of(type.replace(" ", "").split(";"));
            if (parts.contains("g=apidiscovery.k8s.io") && parts.contains("v=v2") && parts.contains("as=APIGroupDiscoveryList")) {
                return true;
            }
        }
        return false;
    }

    private static void respondAggregated(Context ctx, ObjectNode... groups) {
        ObjectNode n = object().put("kind", "APIGroupDiscoveryList").put("apiVersion", "apidiscovery.k8s.io/v2");
        n.putObject("metadata");
        ArrayNode items = n.putArray("items");
        for (ObjectNode g : groups) {
            items.add(g);
        }
        ctx.contentType(AGGREGATED).result(n.toString());
    }

    private static ObjectNode discoveryGroup(String name, List<String> versions) {
        ObjectNode g = object();
        g.putObject("metadata").put("name", name);
        ArrayNode out = g.putArray("versions");
        for (String version : versions) {
            out.addObject().put("version", version).put("freshness", "Current").putArray("resources");
        }
        return g;
    }

    /** A group in the aggregated form: each version with the kinds served in it. */
    private static ObjectNode aggregatedGroup(String name, List<String> versions, List<KindCatalog.Kind> all) {
        ObjectNode g = discoveryGroup(name, versions);
        for (JsonNode v : g.withArray("versions")) {
            String version = v.path("version").asText();
            for (KindCatalog.Kind k : all) {
                if (k.group().equals(name) && k.versions().contains(version)) {
                    aggregatedKind(((ObjectNode) v).withArray("resources"), k, version);
                }
            }
        }
        return g;
    }

    private static void aggregatedKind(ArrayNode resources, KindCatalog.Kind k, String version) {
        ObjectNode r = resources.addObject().put("resource", k.plural()).put("singularResource", k.singular())
            .put("scope", k.namespaced() ? "Namespaced" : "Cluster");
        r.putObject("responseKind").put("group", k.group()).put("version", version).put("kind", k.kindName());
        verbsAndNames(r, k);
        if (!k.hasStatusSubresource(version)) {
            return;
        }
        ObjectNode status = r.putArray("subresources").addObject().put("subresource", "status");
        status.putObject("responseKind").put("group", k.group()).put("version", version).put("kind", k.kindName());
        status.putArray("verbs").add("get").add("patch").add("update");
    }

    /** What both forms of discovery say alike of a kind: its verbs, short names and categories. */
    private static void verbsAndNames(ObjectNode r, KindCatalog.Kind k) {
        verbs(k).forEach(r.putArray("verbs")::add);
        if (!k.shortNames().isEmpty()) {
            k.shortNames().forEach(r.putArray("shortNames")::add);
        }
        if (!k.categories().isEmpty()) {
            k.categories().forEach(r.putArray("categories")::add);
        }
    }

    private static List<String> verbs(KindCatalog.Kind k) {
        return k == KindCatalog.NAMESPACES ? NAMESPACE_VERBS : VERBS;
    }

    private static ObjectNode resourceList(String groupVersion) {
        ObjectNode n = object().put("kind", "APIResourceList").put("apiVersion", "v1").put("groupVersion", groupVersion);
        n.putArray("resources");
        return n;
    }

    /** A group with its versions, the first preferred. */
    private static ObjectNode group(String name, List<String> versions) {
        ObjectNode g = object().put("name", name);
        ArrayNode out = g.putArray("versions");
        for (String version : versions) {
            out.addObject().put("groupVersion", name + "/" + version).put("version", version);
        }
        g.set("preferredVersion", out.get(0).deepCopy());
        return g;
    }

    private static ObjectNode object() {
        return ResourceHandlers.MAPPER.createObjectNode();
    }
}
