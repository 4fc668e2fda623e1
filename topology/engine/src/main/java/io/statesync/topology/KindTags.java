package io.statesync.topology;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values a meter's {@code kind} tag may take: the first {@code metrics.max.kinds} kinds seen keep their name, any
 * further kind is tagged {@link #OTHER}. Any writer can mint kinds, and each kind costs series (a percentile histogram
 * is dozens of them), so without a cap one client could grow /metrics and the registry's heap without bound.
 */
public final class KindTags {

    /** The tag of every kind past the cap. */
    public static final String OTHER = "other";
    /** The zero series' tag, registered at start; it does not count against the cap. */
    private static final String NONE = "none";

    private final int max;
    private final Set<String> kept = ConcurrentHashMap.newKeySet();

    public KindTags(int max) {
        this.max = max;
    }

    /** The tag value for {@code kind}. */
    public String of(String kind) {
        if (kind == null || kind.equals(NONE) || kept.contains(kind)) {
            return kind;
        }
        synchronized (kept) {
            if (kept.size() < max) {
                kept.add(kind);
                return kind;
            }
        }
        return kept.contains(kind) ? kind : OTHER;
    }
}
