package io.statesync.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Runs the collector's decisions as the topology wires them, owners and dependents in different tasks connected by
 * two queues (the dependents index, keyed by owner, and the collect commands, keyed by dependent), for random
 * interleavings of writes, deletes under every policy, deliveries, replayed index records, repeated commands and
 * transactions that abort and run again. When everything is delivered, no dependent names an owner that is gone, none
 * was deleted while its owner existed (outside that owner's foreground deletion) or after its owner orphaned it, and
 * no owner still waits in a foreground deletion.
 */
class OwnerCollectorPropertiesTest {

    private static final String NS = "default";
    private static final int OWNERS = 3;
    private static final int DEPENDENTS = 6;

    @Property(tries = 1000)
    void shouldNeverLeaveADependentOfAGoneOwnerNorDeleteOneWhoseOwnerExists(
            @ForAll @Size(min = 1, max = 160) List<@IntRange(max = 9999) Integer> steps) {
        World w = new World();
        for (int s : steps) {
            w.step(s);
        }
        w.drain();

        for (var dep : w.dependents.entrySet()) {
            for (OwnerRef r : dep.getValue().refs) {
                Obj owner = w.owners.get(r.ownerKey(NS));
                assertThat(owner != null && owner.uid.equals(r.uid()))
                    .as("%s still names %s (uid %s), which is gone", dep.getKey(), r.ownerKey(NS), r.uid()).isTrue();
            }
        }
        assertThat(w.wrongDeletes).as("dependents deleted while their owner existed, or after it orphaned them").isEmpty();
        assertThat(w.orphanedWithRef).as("orphaned dependents still naming the owner").isEmpty();
        for (var o : w.owners.entrySet()) {
            assertThat(o.getValue().foreground).as("%s still waits for dependents that are gone", o.getKey()).isFalse();
        }
    }

    /** A stored resource: its uid, its references and whether a foreground deletion keeps it. */
    private static final class Obj {
        final String uid;
        List<OwnerRef> refs = List.of();
        boolean foreground;

        Obj(String uid) {
            this.uid = uid;
        }
    }

    /** An index record: the entry, or a tombstone (entry null) for the owner and dependent keys. */
    private record Indexed(String ownerKey, String dependentKey, OwnerCollector.Dependent entry) {
    }

    private static final class World {
        final Map<String, Obj> owners = new TreeMap<>();
        final Map<String, Obj> dependents = new TreeMap<>();
        final Map<String, Map<String, OwnerCollector.Dependent>> index = new HashMap<>();
        final Map<String, List<String>> pastUids = new HashMap<>();
        final ArrayDeque<Indexed> indexQueue = new ArrayDeque<>();
        final ArrayDeque<OwnerCollector.Command> commandQueue = new ArrayDeque<>();
        final List<String> wrongDeletes = new ArrayList<>();
        final List<String> orphanedWithRef = new ArrayList<>();
        /** Dependent uid and owner uid of each dependent its owner's Orphan delete knew of: they must stay. */
        final List<String> orphans = new ArrayList<>();
        int uids;

        void step(int s) {
            int what = s % 10;
            int arg = s / 10;
            switch (what) {
                case 0 -> createOwner(ownerKey(arg));
                case 1, 2 -> createDependent("Dep/" + NS + "/d" + arg % DEPENDENTS, arg / DEPENDENTS);
                case 3 -> deleteOwner(ownerKey(arg), Propagation.values()[(arg / OWNERS) % 3]);
                case 4 -> deleteDependent("Dep/" + NS + "/d" + arg % DEPENDENTS);
                case 5, 6 -> deliverIndex(arg % 3 == 0);
                case 7, 8 -> deliverCommand(arg % 3 == 0);
                default -> { } // a transaction that aborts: its input runs again later, as if never seen
            }
        }

        void drain() {
            while (!indexQueue.isEmpty() || !commandQueue.isEmpty()) {
                deliverIndex(false);
                deliverCommand(false);
            }
        }

        String ownerKey(int arg) {
            return "Own/" + NS + "/o" + arg % OWNERS;
        }

        void createOwner(String key) {
            if (!owners.containsKey(key)) {
                String uid = "u" + uids++;
                owners.put(key, new Obj(uid));
                pastUids.computeIfAbsent(key, k -> new ArrayList<>()).add(uid);
            }
        }

        /** Names an existing owner by its uid, or sometimes an earlier owner of that name (a stale uid). */
        void createDependent(String key, int arg) {
            if (dependents.containsKey(key)) {
                return;
            }
            String ownerKey = ownerKey(arg);
            List<String> past = pastUids.get(ownerKey);
            if (past == null) {
                return;
            }
            Obj owner = owners.get(ownerKey);
            String uid = owner != null && arg % 4 != 0 ? owner.uid : past.get((arg / OWNERS) % past.size());
            Obj d = new Obj("u" + uids++);
            boolean block = arg % 2 == 0;
            d.refs = List.of(new OwnerRef("v1", "Own", ownerKey.substring(ownerKey.lastIndexOf('/') + 1), uid, true, block));
            dependents.put(key, d);
            indexQueue.add(new Indexed(ownerKey, key, new OwnerCollector.Dependent(key, d.uid, uid, block)));
        }

        void deleteOwner(String key, Propagation policy) {
            Obj o = owners.get(key);
            if (o == null || o.foreground) {
                return;
            }
            var deletion = OwnerCollector.onOwnerDeleting(key, o.uid, policy, entries(key));
            commandQueue.addAll(deletion.commands());
            if (policy == Propagation.Orphan) {
                entries(key).stream().filter(e -> e.ownerUid().equals(o.uid)).forEach(e -> orphans.add(e.uid() + "|" + o.uid));
                deletion.commands().forEach(c -> index.getOrDefault(key, Map.of()).remove(c.dependentKey()));
            }
            if (deletion.waitForDependents()) {
                o.foreground = true;
            } else {
                ownerGone(key);
            }
        }

        void ownerGone(String key) {
            owners.remove(key);
            commandQueue.addAll(OwnerCollector.onOwnerGone(key, entries(key)));
        }

        void deleteDependent(String key) {
            Obj d = dependents.remove(key);
            if (d != null) {
                d.refs.forEach(r -> indexQueue.add(new Indexed(r.ownerKey(NS), key, null)));
            }
        }

        /** Delivers the next index record; {@code twice}: a replay delivers it again right after. */
        void deliverIndex(boolean twice) {
            Indexed rec = indexQueue.poll();
            if (rec == null) {
                return;
            }
            index(rec);
            if (twice) {
                index(rec);
            }
        }

        void index(Indexed rec) {
            Map<String, OwnerCollector.Dependent> entries = index.computeIfAbsent(rec.ownerKey(), k -> new HashMap<>());
            Obj owner = owners.get(rec.ownerKey());
            if (rec.entry() == null) {
                entries.remove(rec.dependentKey());
            } else {
                entries.put(rec.dependentKey(), rec.entry());
                OwnerCollector.onIndexed(rec.ownerKey(), owner == null ? null : new OwnerCollector.Owner(owner.uid, owner.foreground),
                    rec.entry()).ifPresent(commandQueue::add);
            }
            if (owner != null && owner.foreground && OwnerCollector.foregroundDone(owner.uid, entries(rec.ownerKey()))) {
                ownerGone(rec.ownerKey());
            }
        }

        void deliverCommand(boolean deliverTwice) {
            OwnerCollector.Command c = deliverTwice ? commandQueue.peek() : commandQueue.poll();
            if (c == null) {
                return;
            }
            Obj d = dependents.get(c.dependentKey());
            if (d == null || !OwnerCollector.applies(NS, d.refs, c)) {
                return;
            }
            if (c.action() == OwnerCollector.Action.ORPHAN) {
                d.refs = OwnerCollector.without(d.refs, c.ownerUid());
                indexQueue.add(new Indexed(c.ownerKey(), c.dependentKey(), null));
                if (OwnerCollector.applies(NS, d.refs, c)) {
                    orphanedWithRef.add(c.dependentKey());
                }
                return;
            }
            Obj owner = owners.get(c.ownerKey());
            boolean ownerExists = owner != null && owner.uid.equals(c.ownerUid()) && !owner.foreground;
            if (ownerExists || orphans.contains(d.uid + "|" + c.ownerUid())) {
                wrongDeletes.add(c.dependentKey() + " of " + c.ownerKey());
            }
            deleteDependent(c.dependentKey());
        }

        List<OwnerCollector.Dependent> entries(String ownerKey) {
            return new ArrayList<>(index.getOrDefault(ownerKey, Map.of()).values());
        }
    }
}
