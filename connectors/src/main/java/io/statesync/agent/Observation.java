package io.statesync.agent;

import java.util.Objects;

/**
 * What an agent sees of one resource in the real world.
 *
 * @param ref                the resource
 * @param state              the observed tree (null, Boolean, Long, Double, String, List, Map); null means absent
 * @param status             runtime information that statesync shows but never diffs; may be null
 * @param uid                the uid the world remembers for this resource, or null when it does not keep one
 * @param observedGeneration the generation the world has applied, or 0 when it does not keep one
 */
public record Observation(ResourceRef ref, Object state, Object status, String uid, long observedGeneration) {

    public Observation {
        Objects.requireNonNull(ref, "ref");
    }

    /** A present resource whose world keeps no uid or generation: the library fills them in. */
    public static Observation of(ResourceRef ref, Object state) {
        return new Observation(ref, state, null, null, 0L);
    }

    /** The resource does not exist. */
    public static Observation absent(ResourceRef ref) {
        return new Observation(ref, null, null, null, 0L);
    }

    public boolean isAbsent() {
        return state == null;
    }
}
