package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Generation bookkeeping (docs/contract.md, section 1): generation starts at 1 and grows by one only when the spec changes.
 * Specs compare as trees with numbers by value (5 equals 5.0), so a client that re-sends an int as a double does not
 * bump the generation.
 */
public final class GenerationRules {
    private GenerationRules() {
    }

    public static AdmissionOutcome admit(StoredSpec current, IncomingSpec incoming) {
        return admit(current, incoming, false);
    }

    public static AdmissionOutcome admit(StoredSpec current, IncomingSpec incoming, boolean strictTyping) {
        if (current == null) {
            return new AdmissionOutcome.Created(1);
        }
        if (!Trees.deepEquals(current.spec(), incoming.spec(), strictTyping)) {
            return new AdmissionOutcome.SpecChanged(current.generation() + 1);
        }
        if (!metadataEquals(current, incoming)) {
            return new AdmissionOutcome.MetadataChanged(current.generation());
        }
        return new AdmissionOutcome.NoOp(current.generation());
    }

    private static boolean metadataEquals(StoredSpec current, IncomingSpec incoming) {
        // Finalizers are a set in practice; a re-send in another order must not count as a change.
        return current.labels().equals(incoming.labels())
                && current.annotations().equals(incoming.annotations())
                && new HashSet<>(current.finalizers()).equals(new HashSet<>(incoming.finalizers()));
    }

    /**
     * The finalizers left once the observed resource is gone: statesync removes the ones its policy names. When the
     * result is empty the caller emits the Resource tombstone.
     */
    public static List<String> finalizersAfterObservedDeletion(List<String> finalizers, ReconcilePolicy policy) {
        List<String> left = new ArrayList<>(finalizers);
        left.removeAll(policy.finalizers());
        return List.copyOf(left);
    }
}
