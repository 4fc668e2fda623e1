package io.statesync.gc;

import java.nio.charset.StandardCharsets;

import io.statesync.reconciler.OwnerCollector;

/**
 * A record of the internal dependents index ({@link TopicNames#dependents()}): what a dependent last said about one of
 * its owners, with its sync status and health so that the owner's task knows its children without asking their tasks.
 * The topic's key is {@link #key}; its value is this record as tab-separated UTF-8 text (statesync's own topic, read
 * by no client, so it needs no registered schema).
 */
public record DependentRecord(String dependentKey, String dependentUid, String ownerUid, boolean controller,
                              boolean blockOwnerDeletion, String syncStatus, String health) {

    private static final char SEP = '|';

    /** {@code ownerKey|dependentKey}: keys never hold {@code |}, so the owner's entries share one prefix. */
    public static String key(String ownerKey, String dependentKey) {
        return ownerKey + SEP + dependentKey;
    }

    /** The prefix of all of an owner's entries. */
    public static String prefix(String ownerKey) {
        return ownerKey + SEP;
    }

    public static String ownerKey(String indexKey) {
        return indexKey.substring(0, indexKey.indexOf(SEP));
    }

    public static String dependentKey(String indexKey) {
        return indexKey.substring(indexKey.indexOf(SEP) + 1);
    }

    public OwnerCollector.Dependent entry() {
        return new OwnerCollector.Dependent(dependentKey, dependentUid, ownerUid, blockOwnerDeletion);
    }

    public byte[] encode() {
        return String.join("\t", dependentUid, ownerUid, flag(controller), flag(blockOwnerDeletion), syncStatus, health)
            .getBytes(StandardCharsets.UTF_8);
    }

    /** Decodes the value of the index entry under {@code indexKey}. */
    public static DependentRecord decode(String indexKey, byte[] value) {
        String[] f = new String(value, StandardCharsets.UTF_8).split("\t", -1);
        if (f.length < 6) {
            throw new IllegalArgumentException("not a dependents index entry: " + new String(value, StandardCharsets.UTF_8));
        }
        return new DependentRecord(dependentKey(indexKey), f[0], f[1], "1".equals(f[2]), "1".equals(f[3]), f[4], f[5]);
    }

    private static String flag(boolean b) {
        return b ? "1" : "0";
    }
}
