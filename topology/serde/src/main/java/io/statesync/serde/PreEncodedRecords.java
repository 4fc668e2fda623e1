package io.statesync.serde;

/**
 * The wire bytes a record was already encoded to, lent to this thread's encoders while it writes a record that holds
 * that one as a field: the hand-written encoders copy the bytes in place of encoding the field again. The caller
 * vouches that the record has not changed since those bytes were made; with assertions on, the encoders check it.
 *
 * <p>The lend is per thread and lasts until {@link #clear}: a caller lends, serializes, and clears in a finally block.
 */
public final class PreEncodedRecords {

    /**
     * One holder per thread, filled and emptied in place: setting and removing a thread-local makes a weak map entry
     * each time, and a lend comes with every state write.
     */
    private static final ThreadLocal<Lent> LENT = ThreadLocal.withInitial(Lent::new);

    private static final class Lent {
        private Object record;
        private byte[] wireBytes;
    }

    private PreEncodedRecords() {
    }

    /** Lends {@code wireBytes} (the wire format's prefix, then the Avro encoding of {@code record}) to this thread. */
    public static void lend(Object record, byte[] wireBytes) {
        if (wireBytes.length < WireFormat.HEADER_SIZE) {
            throw new IllegalArgumentException("wire bytes shorter than the wire format's prefix");
        }
        Lent lent = LENT.get();
        lent.record = record;
        lent.wireBytes = wireBytes;
    }

    /** Ends this thread's lend, if any. */
    public static void clear() {
        Lent lent = LENT.get();
        lent.record = null;
        lent.wireBytes = null;
    }

    /** The wire bytes lent for exactly this instance (identity, not equality), or null. */
    public static byte[] wireBytesOf(Object record) {
        Lent lent = LENT.get();
        return lent.record == record && record != null ? lent.wireBytes : null;
    }
}
