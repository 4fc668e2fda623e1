package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

import io.statesync.avro.Value;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;

/**
 * The Avro encodings of recently written specs, kept by identity, so that a spec written once is copied, not walked,
 * when it is written again, and an observation can be compared with it by its bytes.
 *
 * <p>Why: a key's spec is written into its Resource, into the correction, and into the Resource again once observed,
 * and every observation is compared with it, each time by walking a tree that has sat in the state since the key's
 * last event. Those walks miss the CPU's caches node by node; the kept encoding is one array.
 *
 * <p>Sound only because nothing mutates a {@code Value} after it is built (as for the trees of the topology's
 * {@code TreeCache}). Direct-mapped and fixed in size: a collision just encodes again. One table per thread, since a
 * stream task's records are encoded on its stream thread.
 */
public final class ValueEncodings {

    /** About 1.6 s of a stream thread's specs at 5,000 writes/s: 64 KiB of slots, plus the arrays they keep. */
    static final int SLOTS = 8192;
    /** A larger spec is encoded each time: the table must not hold large arrays for a thread's life. */
    static final int KEEP_LIMIT = 16 * 1024;
    /**
     * The most bytes one thread's table keeps: with large specs it holds fewer of them. Past it the table starts
     * empty again, which costs each spec one more encoding. Without it, 8,192 specs just under {@link #KEEP_LIMIT}
     * would pin 128 MiB per thread, while as many specs of about 100 bytes use a fifth of it.
     */
    static final int BUDGET = 4 * 1024 * 1024;
    private static final ThreadLocal<ValueEncodings> PER_THREAD = ThreadLocal.withInitial(ValueEncodings::new);
    private static final ValueAwareDatumWriter<Value> WRITER =
        new ValueAwareDatumWriter<>(Value.getClassSchema(), SpecificData.get());

    private final Value[] keys = new Value[SLOTS];
    private final byte[][] wires = new byte[SLOTS][];
    private final Scratch scratch = new Scratch();
    private BinaryEncoder encoder;
    private long keptBytes;

    private ValueEncodings() {
    }

    /** This thread's table. */
    public static ValueEncodings current() {
        return PER_THREAD.get();
    }

    /**
     * Writes {@code v} from its kept encoding, encoding and keeping it first when there is none (unless it is too large
     * to keep).
     */
    void writeKeeping(Value v, Encoder out) throws IOException {
        int slot = slot(v);
        if (keys[slot] == v) {
            out.writeFixed(wires[slot]);
            return;
        }
        encodeIntoScratch(v);
        if (scratch.size() <= KEEP_LIMIT) {
            keep(slot, v, scratch.toByteArray());
        }
        out.writeFixed(scratch.buffer(), 0, scratch.size());
        scratch.shrink();
    }

    /** Writes {@code v} from its kept encoding; false, having written nothing, when none is kept. */
    boolean writeKept(Value v, Encoder out) throws IOException {
        int slot = slot(v);
        if (keys[slot] != v) {
            return false;
        }
        out.writeFixed(wires[slot]);
        return true;
    }

    /**
     * Whether {@code other} encodes to the kept encoding of {@code kept}; false when none is kept, or when they differ
     * in their bytes (which trees equal in value still can, by the order of a map's entries).
     */
    public boolean encodesAs(Value kept, Value other) {
        int slot = slot(kept);
        if (keys[slot] != kept) {
            return false;
        }
        byte[] wire = wires[slot];
        try {
            encodeIntoScratch(other);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean same = scratch.sameAs(wire);
        scratch.shrink();
        return same;
    }

    /** Whether an encoding of {@code v} is kept; for tests. */
    boolean isKept(Value v) {
        return keys[slot(v)] == v;
    }

    private void keep(int slot, Value v, byte[] wire) {
        keptBytes += wire.length - (wires[slot] == null ? 0 : wires[slot].length);
        if (keptBytes > BUDGET) {
            Arrays.fill(keys, null);
            Arrays.fill(wires, null);
            keptBytes = wire.length;
        }
        keys[slot] = v;
        wires[slot] = wire;
    }

    /** The bytes this thread's table keeps; for tests. */
    long keptBytes() {
        return keptBytes;
    }

    private void encodeIntoScratch(Value v) throws IOException {
        scratch.reset();
        try {
            encoder = EncoderFactory.get().binaryEncoder(scratch, encoder);
            WRITER.write(v, encoder);
            encoder.flush();
        } catch (IOException | RuntimeException e) {
            // A failed write may leave bytes in the encoder's buffer, which it would flush into the next one.
            encoder = null;
            throw e;
        }
    }

    private static int slot(Value v) {
        int h = System.identityHashCode(v);
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }

    /** The buffer an encoding is written into before it is kept or compared. */
    private static final class Scratch extends ByteArrayOutputStream {
        Scratch() {
            super(256);
        }

        byte[] buffer() {
            return buf;
        }

        /** Drops a buffer one large spec has grown. */
        void shrink() {
            if (buf.length > KEEP_LIMIT) {
                buf = new byte[256];
                count = 0;
            }
        }

        boolean sameAs(byte[] wire) {
            return Arrays.equals(buf, 0, count, wire, 0, wire.length);
        }
    }
}
