package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The garbage collector's decisions, as Kubernetes makes them, with no state of its own. An owner and its dependents
 * may live in different tasks: the owner's task keeps an index of the dependents that name it (each entry is what
 * the dependent last said about this owner) and decides here; the dependent's task applies a {@link Command} only
 * while the dependent still names the owner's uid ({@link #applies}), so a late or repeated command changes nothing.
 */
public final class OwnerCollector {

    /** The finalizer an owner carries while a foreground deletion waits for its blocking dependents. */
    public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

    private OwnerCollector() {
    }

    /** One entry of an owner's dependents index. */
    public record Dependent(String key, String uid, String ownerUid, boolean blockOwnerDeletion) {
    }

    /** The owner as its own task knows it; a task that holds no owner under the key passes null instead. */
    public record Owner(String uid, boolean foreground) {
    }

    public enum Action { DELETE, ORPHAN }

    /** What the owner's task asks of a dependent; {@code propagation} is the policy of the dependent's own delete. */
    public record Command(String dependentKey, String ownerKey, String ownerUid, Action action, Propagation propagation) {
    }

    /** The commands of an owner's delete, and whether the owner must wait (with the foreground finalizer) for them. */
    public record Deletion(List<Command> commands, boolean waitForDependents) {
    }

    /**
     * A dependent said it names the owner: nothing to do while that owner exists, otherwise it is collected. An owner
     * that no longer exists, or exists under another uid (deleted and created again), counts as gone.
     */
    public static Optional<Command> onIndexed(String ownerKey, Owner owner, Dependent d) {
        if (owner == null || !owner.uid().equals(d.ownerUid())) {
            return Optional.of(delete(ownerKey, d, Propagation.Background));
        }
        if (owner.foreground()) {
            return Optional.of(delete(ownerKey, d, d.blockOwnerDeletion() ? Propagation.Foreground : Propagation.Background));
        }
        return Optional.empty();
    }

    /**
     * The owner's delete was admitted. Background does nothing yet (its dependents go once it is gone, {@link
     * #onOwnerGone}); Foreground deletes every dependent, the blocking ones in the foreground too, as Kubernetes does,
     * and waits for the blocking ones; Orphan takes the owner out of every dependent. Entries naming another uid are
     * left over from an earlier owner of the same name and are collected under any policy.
     */
    public static Deletion onOwnerDeleting(String ownerKey, String ownerUid, Propagation policy, List<Dependent> deps) {
        List<Command> out = new ArrayList<>();
        boolean wait = false;
        for (Dependent d : deps) {
            boolean mine = d.ownerUid().equals(ownerUid);
            if (!mine) {
                out.add(delete(ownerKey, d, Propagation.Background));
            } else if (policy == Propagation.Orphan) {
                out.add(new Command(d.key(), ownerKey, d.ownerUid(), Action.ORPHAN, Propagation.Orphan));
            } else if (policy == Propagation.Foreground) {
                out.add(delete(ownerKey, d, d.blockOwnerDeletion() ? Propagation.Foreground : Propagation.Background));
                wait |= d.blockOwnerDeletion();
            }
        }
        return new Deletion(out, wait);
    }

    /** The owner is gone: every dependent still indexed under it is collected. */
    public static List<Command> onOwnerGone(String ownerKey, List<Dependent> deps) {
        List<Command> out = new ArrayList<>(deps.size());
        for (Dependent d : deps) {
            out.add(delete(ownerKey, d, Propagation.Background));
        }
        return out;
    }

    /** A foreground deletion may finish once no indexed dependent of this owner blocks it. */
    public static boolean foregroundDone(String ownerUid, List<Dependent> deps) {
        for (Dependent d : deps) {
            if (d.blockOwnerDeletion() && d.ownerUid().equals(ownerUid)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the dependent (in {@code namespace}, with these references) still names the command's owner. */
    public static boolean applies(String namespace, List<OwnerRef> refs, Command c) {
        for (OwnerRef r : refs) {
            if (r.uid().equals(c.ownerUid()) && r.ownerKey(namespace).equals(c.ownerKey())) {
                return true;
            }
        }
        return false;
    }

    /** The references without the one to {@code ownerUid}. */
    public static List<OwnerRef> without(List<OwnerRef> refs, String ownerUid) {
        List<OwnerRef> out = new ArrayList<>(refs.size());
        for (OwnerRef r : refs) {
            if (!r.uid().equals(ownerUid)) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Kubernetes' rules for a resource's references, plus one of statesync's: kind, name and uid are required, at most
     * one reference is the controller, and no two name the same owner, since the dependents index holds one entry per
     * owner and dependent. An empty list means valid.
     */
    public static List<String> validate(List<OwnerRef> refs) {
        List<String> problems = new ArrayList<>();
        Set<String> owners = new HashSet<>();
        int controllers = 0;
        for (int i = 0; i < refs.size(); i++) {
            OwnerRef r = refs.get(i);
            String at = "metadata.ownerReferences[" + i + "]";
            requireText(r.kind(), at + ".kind", problems);
            requireText(r.name(), at + ".name", problems);
            requireText(r.uid(), at + ".uid", problems);
            if (!owners.add(r.kind() + "/" + r.name())) {
                problems.add(at + ": names " + r.kind() + "/" + r.name() + " a second time");
            }
            controllers += r.controller() ? 1 : 0;
        }
        if (controllers > 1) {
            problems.add("metadata.ownerReferences: only one reference can have controller set to true, found " + controllers);
        }
        return problems;
    }

    private static void requireText(String s, String field, List<String> problems) {
        if (s == null || s.isBlank()) {
            problems.add(field + ": Required value");
        }
    }

    private static Command delete(String ownerKey, Dependent d, Propagation p) {
        return new Command(d.key(), ownerKey, d.ownerUid(), Action.DELETE, p);
    }
}
