package io.statesync.reconciler.fields;

import io.statesync.reconciler.fields.internal.GoText;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A field that an apply would change while another manager owns it. {@code time} is null for the conflicts that
 * {@link FieldManager} reports, as the apiserver names managers without their time.
 */
public record Conflict(String manager, Operation operation, String apiVersion, Instant time, List<PathElement> path) {
    public Conflict {
        path = List.copyOf(path);
    }

    /** The field as the apiserver prints it: {@code .spec.replicas}. */
    public String field() {
        return FieldSet.pathString(path);
    }

    /** The cause's message: {@code conflict with "kubectl"}, or {@code conflict with "kubectl" using v1} for an Update. */
    public String message() {
        return "conflict with " + managerText();
    }

    /** The manager as the apiserver prints it: quoted, and for an Update with its API version (and time, if any). */
    public String managerText() {
        String quoted = GoText.quote(manager);
        if (operation != Operation.Update) {
            return quoted;
        }
        if (time == null) {
            return quoted + " using " + apiVersion;
        }
        return quoted + " using " + apiVersion + " at "
                + DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.SECONDS));
    }
}
