package io.statesync.reconciler.internal;

import io.statesync.reconciler.PatchOp;
import io.statesync.reconciler.Trees;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** SHA-256 of a canonical text, so that a fingerprint stored by one instance matches on another after a rebalance. */
public final class Fingerprints {
    private Fingerprints() {
    }

    public static String of(String prefix, List<PatchOp> patch) {
        StringBuilder text = new StringBuilder(prefix);
        for (PatchOp op : patch) {
            text.append('|').append(op.op()).append(' ').append(Trees.canonicalJson(op.path().segments()));
            if (op.value() != null) {
                text.append('=').append(Trees.canonicalJson(op.value()));
            }
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
