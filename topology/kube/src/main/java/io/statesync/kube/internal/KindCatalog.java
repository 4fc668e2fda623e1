package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.KindPolicy;
import io.statesync.kube.KubeConfig;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;
import io.statesync.schemas.Values;
import io.statesync.topology.ResourceKey;
import io.statesync.view.StoredResource;

/**
 * The kinds the Kubernetes API serves, each in its API group and versions:
 * <ul>
 *   <li>{@code statesync.io/v1}: those with a kind policy and those that have resources, namespaced, under the
 *   plural, singular and short names a kind policy may give (by default the lower-cased kind plus {@code s} and the
 *   lower-cased kind);</li>
 *   <li>{@code apiextensions.k8s.io/v1 CustomResourceDefinition}, cluster-scoped, whose objects are stored as any
 *   other resource;</li>
 *   <li>every kind a stored CustomResourceDefinition defines, in its group, versions, scope and names.</li>
 * </ul>
 * Asked afresh on each request, so that a new definition, a new kind policy or a first resource of a kind shows at
 * once.
 */
public final class KindCatalog {

    /** The group and kind of the definitions, as keys write them. */
    public static final String CRD_GROUP = "apiextensions.k8s.io";
    public static final String CRD_KIND = ResourceKey.qualifiedKind("CustomResourceDefinition", CRD_GROUP);

    /**
     * One served kind. {@code kind} is the kind as keys write it (qualified by its group unless that is
     * statesync.io); {@code versions} are the served ones, the preferred first; {@code definition} is the spec of the
     * CustomResourceDefinition that defines it, or null.
     */
    public record Kind(String kind, String group, List<String> versions, String plural, String singular,
                       List<String> shortNames, List<String> categories, boolean namespaced, KindPolicy policy,
                       ObjectNode definition) {

        /** The kind's name without its group, as Kubernetes objects carry it. */
        public String kindName() {
            return ResourceKey.nameOf(kind);
        }

        public String listKind() {
            String listKind = definition == null ? "" : definition.path("names").path("listKind").asText("");
            return listKind.isEmpty() ? kindName() + "List" : listKind;
        }

        /** {@code group/version}, or the bare version for the core group. */
        public String apiVersion(String version) {
            return group.isEmpty() ? version : group + "/" + version;
        }

        /** {@code plural.group}, as Kubernetes names a resource in its messages. */
        public String qualifiedPlural() {
            return group.isEmpty() ? plural : plural + "." + group;
        }

        /** The definition's version named {@code version}, or null. */
        /** Whether {@code version} serves {@code /status} (see {@link Served#hasStatusSubresource()}). */
        public boolean hasStatusSubresource(String version) {
            ObjectNode v = definitionVersion(version);
            return definition == null || v != null && v.path("subresources").has("status");
        }

        public ObjectNode definitionVersion(String version) {
            if (definition == null) {
                return null;
            }
            for (JsonNode v : definition.path("versions")) {
                if (version.equals(v.path("name").asText()) && v instanceof ObjectNode o) {
                    return o;
                }
            }
            return null;
        }
    }

    /** A kind as one request addresses it, in one of its versions. */
    public record Served(Kind kind, String version) {
        public String apiVersion() {
            return kind.apiVersion(version);
        }

        /**
         * Whether the version serves {@code /status}: every statesync kind does; a defined kind when its version
         * declares {@code subresources.status}, as in Kubernetes.
         */
        public boolean hasStatusSubresource() {
            return kind.hasStatusSubresource(version);
        }
    }

    private static final Kind DEFINITIONS = new Kind(CRD_KIND, CRD_GROUP, List.of("v1"), "customresourcedefinitions",
        "customresourcedefinition", List.of("crd", "crds"), List.of("api-extensions"), false, null, null);

    /** Kubernetes' core {@code v1 Namespace}, cluster-scoped, an object statesync itself acts on (see ContentDeleter). */
    public static final String NAMESPACE_KIND = io.statesync.topology.ApiOnlyKinds.NAMESPACE;
    static final Kind NAMESPACES = new Kind(NAMESPACE_KIND, "", List.of("v1"), "namespaces", "namespace", List.of("ns"),
        List.of(), false, null, null);

    private final RestContext context;
    private volatile Decoded decoded;

    public KindCatalog(RestContext context) {
        this.context = context;
    }

    /** Every kind served: the statesync.io kinds by kind, then the definitions' kind, then the defined kinds. */
    public List<Kind> all() {
        Map<String, KindPolicy> policies = policies();
        Map<String, Kind> defined = defined(policies);
        Map<String, Kind> out = new TreeMap<>();
        policies.forEach((kind, policy) -> {
            if (ResourceKey.groupOf(kind).equals(ResourceKey.DEFAULT_GROUP)) {
                out.put(kind, of(kind, policy));
            }
        });
        for (String kind : context.view().kinds()) {
            if (ResourceKey.groupOf(kind).equals(ResourceKey.DEFAULT_GROUP)) {
                out.computeIfAbsent(kind, k -> of(k, null));
            }
        }
        out.putAll(defined);
        List<Kind> all = new ArrayList<>(out.values());
        all.add(DEFINITIONS);
        all.add(NAMESPACES);
        return all;
    }

    /** The served groups, statesync.io first, each with its served versions, the preferred first. */
    public Map<String, List<String>> groups() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put(ResourceKey.DEFAULT_GROUP, List.of("v1"));
        Map<String, List<String>> others = new TreeMap<>();
        for (Kind k : all()) {
            List<String> versions = others.computeIfAbsent(k.group(), g -> new ArrayList<>());
            for (String v : k.versions()) {
                if (!versions.contains(v)) {
                    versions.add(v);
                }
            }
        }
        others.remove(ResourceKey.DEFAULT_GROUP);
        // The core group is served under /api, not /apis.
        others.remove("");
        others.values().forEach(KubeVersions::sortByPriority);
        out.putAll(others);
        return out;
    }

    /** The kinds served in {@code group} at {@code version}. */
    public List<Kind> inGroupVersion(String group, String version) {
        List<Kind> out = new ArrayList<>();
        for (Kind k : all()) {
            if (k.group().equals(group) && k.versions().contains(version)) {
                out.add(k);
            }
        }
        return out;
    }

    /** The kind served as {@code plural} in {@code group} at {@code version}; 404 as Kubernetes answers otherwise. */
    public Served resolve(String group, String version, String plural) {
        for (Kind k : all()) {
            if (k.group().equals(group) && k.plural().equals(plural) && k.versions().contains(version)) {
                return new Served(k, version);
            }
        }
        throw ApiError.notFound("the server could not find the requested resource (" + plural
            + (group.isEmpty() ? "" : "." + group) + ")");
    }

    /**
     * The kind a request's path addresses by its {@code group}, {@code version} and {@code plural}; a core path
     * ({@code /api/v1/namespaces...}) names none of them and addresses the namespaces.
     */
    public Served resolve(io.javalin.http.Context ctx) {
        Map<String, String> params = ctx.pathParamMap();
        if (!params.containsKey("group")) {
            return new Served(NAMESPACES, "v1");
        }
        return resolve(params.get("group"), params.get("version"), params.get("plural"));
    }

    /**
     * The namespace of the objects a request's path addresses: the path's for a namespaced kind, empty for a
     * cluster-scoped one; 404, as Kubernetes answers, when the path's scope is not the kind's. A namespaced kind's
     * path without a namespace is the list across all namespaces, for which {@code acrossAll} is true and null is
     * answered.
     */
    public static String namespace(io.javalin.http.Context ctx, Served served, boolean acrossAll) {
        String ns = ctx.pathParamMap().get("namespace");
        if (!served.kind().namespaced()) {
            if (ns != null) {
                throw ApiError.notFound("the server could not find the requested resource");
            }
            return "";
        }
        if (ns == null && !acrossAll) {
            throw ApiError.notFound("the server could not find the requested resource");
        }
        return ns;
    }

    private Map<String, KindPolicy> policies() {
        try {
            return context.kindPolicies();
        } catch (ApiError notYet) {
            // The kinds store answers once the streams run; until then the kinds that have resources are served.
            return Map.of();
        }
    }

    /**
     * The kinds the stored definitions define, by kind; the first stored definition of a kind wins. The definitions'
     * specs are decoded again only when one of them changed (their keys and versions, read without decoding, differ
     * from the last request's), since every request of the Kubernetes API asks for the served kinds.
     */
    private Map<String, Kind> defined(Map<String, KindPolicy> policies) {
        List<StoredResource> stored = context.view().withKeyPrefix(CRD_KIND + "/", maxDefinitions());
        List<String> versions = new ArrayList<>(stored.size());
        stored.forEach(r -> versions.add(r.key() + "@" + r.resourceVersion()));
        Decoded last = decoded;
        List<ObjectNode> specs;
        if (last != null && last.versions().equals(versions)) {
            specs = last.specs();
        } else {
            specs = new ArrayList<>(stored.size());
            for (StoredResource r : stored) {
                if (Values.toJson(r.resource().getSpec()) instanceof ObjectNode spec) {
                    specs.add(spec);
                }
            }
            decoded = new Decoded(versions, specs);
        }
        Map<String, Kind> out = new TreeMap<>();
        for (ObjectNode spec : specs) {
            Kind k = ofDefinition(spec, policies);
            if (k != null) {
                out.putIfAbsent(k.kind(), k);
            }
        }
        return out;
    }

    /** How many definitions are served at most, and read by one request. */
    int maxDefinitions() {
        return context.config().getInt(KubeConfig.DEFINITIONS_MAX_COUNT);
    }

    /** Whether as many definitions are stored as may be served. */
    boolean definitionsFull() {
        int max = maxDefinitions();
        return context.view().withKeyPrefix(CRD_KIND + "/", max).size() >= max;
    }

    /** The definitions' specs as last decoded, with the keys and versions they were decoded at. */
    private record Decoded(List<String> versions, List<ObjectNode> specs) {
    }

    /** The kind a definition's spec defines, or null when the spec does not name one (admission refuses such). */
    static Kind ofDefinition(ObjectNode spec, Map<String, KindPolicy> policies) {
        String group = spec.path("group").asText("");
        JsonNode names = spec.path("names");
        String kindName = names.path("kind").asText("");
        String plural = names.path("plural").asText("");
        if (kindName.isEmpty() || plural.isEmpty() || !ResourceKey.isValidKind(ResourceKey.qualifiedKind(kindName, group))) {
            return null;
        }
        List<String> versions = new ArrayList<>();
        for (JsonNode v : spec.path("versions")) {
            if (v.path("served").asBoolean(false)) {
                versions.add(v.path("name").asText());
            }
        }
        KubeVersions.sortByPriority(versions);
        String kind = ResourceKey.qualifiedKind(kindName, group);
        String singular = names.path("singular").asText("");
        return new Kind(kind, group, List.copyOf(versions), plural,
            singular.isEmpty() ? kindName.toLowerCase(Locale.ROOT) : singular, strings(names.path("shortNames")),
            strings(names.path("categories")), !"Cluster".equals(spec.path("scope").asText("Namespaced")),
            policies.get(kind), spec);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return List.copyOf(out);
    }

    static Kind of(String kind, KindPolicy policy) {
        String lower = kind.toLowerCase(Locale.ROOT);
        String plural = policy == null ? null : policy.getPlural();
        String singular = policy == null ? null : policy.getSingular();
        return new Kind(kind, ResourceKey.DEFAULT_GROUP, List.of("v1"), plural == null || plural.isEmpty() ? lower + "s" : plural,
            singular == null || singular.isEmpty() ? lower : singular,
            policy == null ? List.of() : List.copyOf(policy.getShortNames()), List.of("all", "statesync"), true, policy, null);
    }
}
