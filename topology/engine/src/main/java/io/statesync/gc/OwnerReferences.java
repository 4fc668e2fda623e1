package io.statesync.gc;

import java.util.ArrayList;
import java.util.List;

import io.statesync.avro.OwnerReference;
import io.statesync.reconciler.OwnerRef;

/** Owner references between the schema's records and the reconciler's, which decides on them. */
public final class OwnerReferences {

    private OwnerReferences() {
    }

    /** The schema's owner references as the reconciler's. */
    public static List<OwnerRef> toReconciler(List<OwnerReference> refs) {
        if (refs.isEmpty()) {
            return List.of();
        }
        List<OwnerRef> out = new ArrayList<>(refs.size());
        for (OwnerReference r : refs) {
            out.add(new OwnerRef(r.getApiVersion(), r.getKind(), r.getName(), r.getUid(), r.getController(),
                r.getBlockOwnerDeletion()));
        }
        return out;
    }

    /** The reconciler's owner references as the schema's. */
    public static List<OwnerReference> toSchema(List<OwnerRef> refs) {
        List<OwnerReference> out = new ArrayList<>(refs.size());
        for (OwnerRef r : refs) {
            out.add(new OwnerReference(r.apiVersion(), r.kind(), r.name(), r.uid(), r.controller(), r.blockOwnerDeletion()));
        }
        return out;
    }
}
