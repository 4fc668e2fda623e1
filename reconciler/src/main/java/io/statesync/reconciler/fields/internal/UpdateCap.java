package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.ManagedFieldsEntry;
import io.statesync.reconciler.fields.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the Update entries of an object to a bound, as the apiserver does: the oldest are merged, per API version,
 * into one {@code ancient-changes} entry, so that a stream of writers with changing names cannot grow the object.
 */
public final class UpdateCap {
    public static final String ANCIENT_CHANGES = "ancient-changes";

    private UpdateCap() {
    }

    public static void cap(ManagerSets managers, int maxUpdateManagers) {
        List<String> updaters = new ArrayList<>();
        managers.entries().forEach((id, e) -> {
            if (e.operation() == Operation.Update) {
                updaters.add(id);
            }
        });
        if (updaters.size() <= maxUpdateManagers) {
            return;
        }
        updaters.sort(Comparator.comparingLong((String id) -> seconds(managers.get(id).time()))
                .thenComparing(GoText::compareStrings));
        Map<String, String> firstOfVersion = new HashMap<>();
        int length = updaters.size();
        for (int i = 0; i < updaters.size() && length > maxUpdateManagers; i++) {
            String id = updaters.get(i);
            String version = managers.get(id).apiVersion();
            String bucket = ManagerSets.identifier(ANCIENT_CHANGES, Operation.Update, version);
            String first = firstOfVersion.get(version);
            if (id.equals(bucket) || first == null) {
                // The bucket itself stays as it is; the first of a version waits for a second to merge with.
                firstOfVersion.putIfAbsent(version, id);
                continue;
            }
            if (managers.get(bucket) == null) {
                ManagedFieldsEntry f = managers.remove(first);
                managers.put(new ManagedFieldsEntry(ANCIENT_CHANGES, Operation.Update, version, f.time(), f.fields()));
            }
            merge(managers, bucket, managers.remove(id));
            length--;
        }
    }

    private static void merge(ManagerSets managers, String bucket, ManagedFieldsEntry merged) {
        ManagedFieldsEntry b = managers.get(bucket);
        Instant time = later(b.time(), merged.time());
        managers.put(new ManagedFieldsEntry(ANCIENT_CHANGES, Operation.Update, b.apiVersion(), time,
                b.fields().union(merged.fields())));
    }

    private static Instant later(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
    }

    private static long seconds(Instant t) {
        return t == null ? 0 : t.getEpochSecond();
    }
}
