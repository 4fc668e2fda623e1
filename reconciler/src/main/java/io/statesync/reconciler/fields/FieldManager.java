package io.statesync.reconciler.fields;

import io.statesync.reconciler.Trees;
import io.statesync.reconciler.fields.internal.GoText;
import io.statesync.reconciler.fields.internal.ListItems;
import io.statesync.reconciler.fields.internal.ManagerSets;
import io.statesync.reconciler.fields.internal.OwnershipTransfer;
import io.statesync.reconciler.fields.internal.Pruning;
import io.statesync.reconciler.fields.internal.TreeComparison;
import io.statesync.reconciler.fields.internal.TreeFields;
import io.statesync.reconciler.fields.internal.TreeMerge;
import io.statesync.reconciler.fields.internal.UpdateCap;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Server-side apply and the managed fields of every write, as the Kubernetes apiserver keeps them: who owns which
 * field, conflicts when an apply would change another manager's field, and removal of what an applier stops
 * applying. Pure: the clock comes in as {@code now}, trees and entries in are never changed.
 *
 * <p>Objects are trees whose maps are all granular (every key a field of its own) and whose lists are atomic unless
 * {@link ListShapes} says they are sets or map lists. A manager is identified as the apiserver identifies it: by name
 * and operation, and for an Update by API version too.
 */
public final class FieldManager {
    /** The Update entries kept before the oldest are merged into {@code ancient-changes}. */
    public static final int MAX_UPDATE_MANAGERS = 10;
    /** The Update entry that takes the fields of an object written before it had managed fields. */
    public static final String BEFORE_FIRST_APPLY = "before-first-apply";
    /** Object metadata that no manager owns, as the apiserver strips it. */
    public static final FieldSet KUBERNETES_UNOWNED = FieldSet.of(List.of(List.of(field("apiVersion")),
            List.of(field("kind")), List.of(field("metadata")), meta("name"), meta("namespace"),
            meta("creationTimestamp"), meta("selfLink"), meta("uid"), meta("clusterName"), meta("generation"),
            meta("managedFields"), meta("resourceVersion")));

    private static final Map<String, Object> NO_OBJECT = Trees.map();

    private final ListShapes shapes;
    private final FieldSet unowned;

    public FieldManager(ListShapes shapes) {
        this(shapes, KUBERNETES_UNOWNED);
    }

    /** @param unowned paths taken out of every set a write gives its manager (members only, not their children) */
    public FieldManager(ListShapes shapes, FieldSet unowned) {
        this.shapes = Objects.requireNonNull(shapes, "shapes");
        this.unowned = Objects.requireNonNull(unowned, "unowned");
    }

    /** The object written and its managed fields, sorted as the apiserver sorts them. */
    public record Result(Object object, List<ManagedFieldsEntry> managedFields, boolean objectChanged) {
        public Result {
            managedFields = List.copyOf(managedFields);
        }
    }

    /**
     * Server-side apply of {@code config}, the manager's whole intent, onto {@code live} (null: the object is absent
     * and the apply creates it). The configuration is merged in; what the manager applied before and leaves out now
     * is removed unless another manager owns it; the manager then owns exactly the configuration's fields. An object
     * with live fields but no managed fields first gives them all to a {@value #BEFORE_FIRST_APPLY} Update entry.
     * An apply that changes nothing answers the live object, {@code objectChanged=false}, and keeps the times.
     *
     * @param managed the live object's managed fields
     * @throws ApplyConflictException unless {@code force}, when another manager owns a field the apply would change
     * @throws IllegalArgumentException when the configuration is not an object, or has a set or map list whose items
     *     cannot be told apart
     */
    public Result apply(Object live, Object config, List<ManagedFieldsEntry> managed, String manager,
            String apiVersion, boolean force, Instant now) {
        Object base = live == null ? NO_OBJECT : Trees.normalize(live);
        Object intent = Trees.normalize(config);
        if (!(intent instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("the applied configuration must be an object, not "
                    + Trees.typeName(intent));
        }
        ListItems.check(intent, shapes, new ArrayList<>(), new ArrayList<>());
        Instant at = seconds(now);
        ManagerSets managers = ManagerSets.of(managed == null ? List.of() : managed);
        if (managers.isEmpty() && live != null) {
            recordUpdate(NO_OBJECT, base, managers, BEFORE_FIRST_APPLY, apiVersion, at);
        }
        String name = nameOf(manager);
        String id = ManagerSets.identifier(name, Operation.Apply, "");
        ManagedFieldsEntry previous = managers.get(id);
        FieldSet lastApplied = previous == null ? null : previous.fields();
        managers.put(new ManagedFieldsEntry(name, Operation.Apply, apiVersion,
                previous == null ? null : previous.time(), TreeFields.of(intent, shapes)));
        Object merged = Pruning.prune(TreeMerge.merge(base, intent, shapes), managers, lastApplied, shapes);
        OwnershipTransfer.transfer(base, merged, managers, id, force, shapes);
        boolean changed = live == null || !Trees.deepEquals(base, merged, false);
        if (changed) {
            managers.setTime(id, at);
        }
        strip(managers, id);
        return new Result(changed ? merged : live, sorted(managers.list()), changed);
    }

    /**
     * Any other write: {@code updated} replaces {@code live} (null: a create). The manager's Update entry gains the
     * fields the write modified or added and its time is set when it gained any; every other manager loses them;
     * removed fields leave every set. Past {@value #MAX_UPDATE_MANAGERS} Update entries the oldest are merged into
     * {@code ancient-changes}. An existing object with no managed fields stays untracked, as the apiserver leaves it
     * until the first apply; so pass the managed fields the write starts from (empty when it resets them).
     */
    public Result update(Object live, Object updated, List<ManagedFieldsEntry> managed, String manager,
            String apiVersion, Instant now) {
        Object base = live == null ? NO_OBJECT : Trees.normalize(live);
        Object next = Trees.normalize(updated);
        boolean changed = live == null || !Trees.deepEquals(base, next, false);
        ManagerSets managers = ManagerSets.of(managed == null ? List.of() : managed);
        if (managers.isEmpty() && live != null) {
            return new Result(next, List.of(), changed);
        }
        recordUpdate(base, next, managers, nameOf(manager), apiVersion, seconds(now));
        UpdateCap.cap(managers, MAX_UPDATE_MANAGERS);
        return new Result(next, sorted(managers.list()), changed);
    }

    /**
     * The write's own set is what it modified or added; when that is not empty, it joins the manager's earlier Update
     * entry for the same API version, and the entry's time becomes {@code now}.
     */
    private void recordUpdate(Object before, Object after, ManagerSets managers, String manager, String apiVersion,
            Instant now) {
        String current = "current-operation\u0000";
        TreeComparison.Changes changes = OwnershipTransfer.transfer(before, after, managers, current, true, shapes);
        FieldSet taken = changes.modifiedOrAdded().difference(unowned);
        if (taken.isEmpty()) {
            return;
        }
        String id = ManagerSets.identifier(manager, Operation.Update, apiVersion);
        ManagedFieldsEntry previous = managers.get(id);
        FieldSet fields = previous == null ? taken : taken.union(previous.fields());
        managers.put(new ManagedFieldsEntry(manager, Operation.Update, apiVersion, now, fields));
    }

    private void strip(ManagerSets managers, String id) {
        ManagedFieldsEntry e = managers.get(id);
        if (e != null) {
            managers.setFields(id, e.fields().difference(unowned));
            managers.dropEmpty();
        }
    }

    /**
     * Entries in the apiserver's order: Apply before Update, then by time (oldest first, no time first), manager
     * name and API version.
     */
    public static List<ManagedFieldsEntry> sorted(List<ManagedFieldsEntry> entries) {
        List<ManagedFieldsEntry> out = new ArrayList<>(entries);
        out.sort(Comparator.comparing((ManagedFieldsEntry e) -> e.operation().name())
                .thenComparingLong(e -> e.time() == null ? 0 : e.time().getEpochSecond())
                .thenComparing(ManagedFieldsEntry::manager, GoText::compareStrings)
                .thenComparing(ManagedFieldsEntry::apiVersion, GoText::compareStrings));
        return out;
    }

    /** The fields a tree sets (structured-merge-diff's ToFieldSet), lists typed by {@code shapes}. */
    public static FieldSet fieldsOf(Object tree, ListShapes shapes) {
        return TreeFields.of(Trees.normalize(tree), shapes);
    }

    private static String nameOf(String manager) {
        return manager == null || manager.isEmpty() ? "unknown" : manager;
    }

    private static Instant seconds(Instant now) {
        return Objects.requireNonNull(now, "now").truncatedTo(ChronoUnit.SECONDS);
    }

    private static PathElement field(String name) {
        return new PathElement.Field(name);
    }

    private static List<PathElement> meta(String name) {
        return List.of(field("metadata"), field(name));
    }
}
