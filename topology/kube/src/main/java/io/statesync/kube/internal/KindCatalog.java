package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.statesync.avro.KindPolicy;
import io.statesync.rest.ApiError;
import io.statesync.rest.RestContext;

/**
 * The kinds the Kubernetes API serves: those with a kind policy and those that have resources, each under its
 * plural, singular and short names (a kind policy may name them; by default the plural is the lower-cased kind
 * plus {@code s} and the singular the lower-cased kind). Asked afresh on each request, so that a new kind policy
 * or a first resource of a kind shows at once.
 */
public final class KindCatalog {

    /** One served kind. */
    public record Kind(String kind, String plural, String singular, List<String> shortNames, KindPolicy policy) {
    }

    private final RestContext context;

    public KindCatalog(RestContext context) {
        this.context = context;
    }

    /** Every kind served, by kind. */
    public List<Kind> all() {
        Map<String, KindPolicy> policies = policies();
        Map<String, Kind> out = new TreeMap<>();
        policies.forEach((kind, policy) -> out.put(kind, of(kind, policy)));
        for (String kind : context.view().kinds()) {
            out.computeIfAbsent(kind, k -> of(k, null));
        }
        return new ArrayList<>(out.values());
    }

    /** The kind served under {@code plural}; 404 as Kubernetes answers an unknown resource. */
    public Kind byPlural(String plural) {
        for (Kind k : all()) {
            if (k.plural().equals(plural)) {
                return k;
            }
        }
        throw ApiError.notFound("the server could not find the requested resource (" + plural + "." + KubePaths.GROUP + ")");
    }

    private Map<String, KindPolicy> policies() {
        try {
            return context.kindPolicies();
        } catch (ApiError notYet) {
            // The kinds store answers once the streams run; until then the kinds that have resources are served.
            return Map.of();
        }
    }

    static Kind of(String kind, KindPolicy policy) {
        String lower = kind.toLowerCase(Locale.ROOT);
        String plural = policy == null ? null : policy.getPlural();
        String singular = policy == null ? null : policy.getSingular();
        return new Kind(kind, plural == null || plural.isEmpty() ? lower + "s" : plural,
            singular == null || singular.isEmpty() ? lower : singular, policy == null ? List.of() : List.copyOf(policy.getShortNames()),
            policy);
    }
}
