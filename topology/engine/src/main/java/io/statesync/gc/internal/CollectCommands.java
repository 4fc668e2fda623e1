package io.statesync.gc.internal;

import java.nio.charset.StandardCharsets;

import io.statesync.reconciler.OwnerCollector;
import io.statesync.reconciler.Propagation;

/**
 * The value of a record on the internal collect topic, keyed by the dependent's key: action, propagation, owner key
 * and owner uid as tab-separated UTF-8 text (statesync's own topic, read by no client).
 */
final class CollectCommands {

    private CollectCommands() {
    }

    static byte[] encode(OwnerCollector.Command c) {
        return String.join("\t", c.action().name(), c.propagation().name(), c.ownerKey(), c.ownerUid())
            .getBytes(StandardCharsets.UTF_8);
    }

    static OwnerCollector.Command decode(String dependentKey, byte[] value) {
        String[] f = new String(value, StandardCharsets.UTF_8).split("\t", -1);
        if (f.length < 4) {
            throw new IllegalArgumentException("not a collect command: " + new String(value, StandardCharsets.UTF_8));
        }
        return new OwnerCollector.Command(dependentKey, f[2], f[3], OwnerCollector.Action.valueOf(f[0]),
            Propagation.valueOf(f[1]));
    }
}
