package io.statesync.reconciler;

import java.util.Locale;
import java.util.Optional;

/** What a delete does to the owner's dependents: Kubernetes' {@code DeleteOptions.propagationPolicy}. */
public enum Propagation {
    /** The owner goes at once; the collector deletes its dependents once it is gone. */
    Background,
    /** The owner stays, deleting, until every dependent that blocks its deletion is gone. */
    Foreground,
    /** The dependents lose their reference to the owner and stay. */
    Orphan;

    /** The policy named, case-insensitively; empty for a name that is none of them. Null or blank is Background. */
    public static Optional<Propagation> parse(String name) {
        if (name == null || name.isBlank()) {
            return Optional.of(Background);
        }
        for (Propagation p : values()) {
            if (p.name().toLowerCase(Locale.ROOT).equals(name.trim().toLowerCase(Locale.ROOT))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
