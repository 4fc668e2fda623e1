package io.statesync.reconciler.fields;

import java.util.ArrayList;
import java.util.List;

/**
 * An apply refused because it would change fields that other managers own. The message is the apiserver's, which
 * kubectl prints as it is: {@code Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas}.
 */
public final class ApplyConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<Conflict> conflicts;

    /** @param conflicts grouped by manager, managers in the order of their identifiers */
    public ApplyConflictException(List<Conflict> conflicts) {
        super(message(conflicts));
        this.conflicts = List.copyOf(conflicts);
    }

    public List<Conflict> conflicts() {
        return conflicts;
    }

    private static String message(List<Conflict> conflicts) {
        if (conflicts.size() == 1) {
            Conflict c = conflicts.get(0);
            return "Apply failed with 1 conflict: " + c.message() + ": " + c.field();
        }
        List<String> lines = new ArrayList<>();
        String group = null;
        for (Conflict c : conflicts) {
            String manager = c.managerText();
            if (!manager.equals(group)) {
                lines.add("conflicts with " + manager + ":");
                group = manager;
            }
            lines.add("- " + c.field());
        }
        return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
    }
}
