package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of trees drawn from small domains (few keys, few values) so that independently generated desired,
 * observed and last-applied trees overlap often, which is where the interesting cases are.
 */
final class TreeArbitraries {
    static final String KEY_FIELD = "name";
    static final ReconcilePolicy KEYED = ReconcilePolicy.builder().listMergeKey("items", KEY_FIELD)
            .listMergeKey("*.items", KEY_FIELD).build();

    private TreeArbitraries() {
    }

    static Arbitrary<Object> scalars() {
        return Arbitraries.oneOf(
                Arbitraries.just(null),
                Arbitraries.of(true, false),
                Arbitraries.longs().between(-2, 3).map(l -> (Object) l),
                Arbitraries.of(1.0d, 2.5d, 3.0d, -0.5d).map(d -> (Object) d),
                Arbitraries.of("a", "b", "nginx:1.20", "nginx:1.21").map(s -> (Object) s));
    }

    static Arbitrary<String> keys() {
        return Arbitraries.of("image", "replicas", "port", "env", "items", "x");
    }

    /** A tree of at most {@code depth} levels: scalars, maps, atomic lists and lists of maps keyed by name. */
    static Arbitrary<Object> trees(int depth) {
        if (depth == 0) {
            return scalars();
        }
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, scalars()),
                net.jqwik.api.Tuple.of(3, maps(depth - 1).map(m -> (Object) m)),
                net.jqwik.api.Tuple.of(1, trees(depth - 1).list().ofMaxSize(3).map(l -> (Object) Trees.normalize(l))),
                net.jqwik.api.Tuple.of(1, keyedList(depth - 1)));
    }

    static Arbitrary<Map<String, Object>> maps(int depth) {
        return Arbitraries.maps(keys(), Arbitraries.lazy(() -> trees(depth))).ofMaxSize(4).map(TreeArbitraries::freeze);
    }

    /** Specs are maps at the root, as a resource's spec is (docs/contract.md, section 1). */
    static Arbitrary<Object> specs() {
        return maps(2).map(m -> (Object) m);
    }

    static Arbitrary<Object> keyedList(int depth) {
        Arbitrary<Map<String, Object>> item = maps(Math.max(0, depth - 1));
        Arbitrary<List<String>> names = Arbitraries.of("web", "db", "cache", "side").list().uniqueElements().ofMaxSize(4);
        return Combinators.combine(names, item.list().ofSize(4)).as((ns, items) -> {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < ns.size(); i++) {
                Map<String, Object> m = new LinkedHashMap<>(items.get(i));
                m.put(KEY_FIELD, ns.get(i));
                out.add(m);
            }
            return Trees.normalize(out);
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> freeze(Map<String, Object> m) {
        return (Map<String, Object>) Trees.normalize(m);
    }
}
