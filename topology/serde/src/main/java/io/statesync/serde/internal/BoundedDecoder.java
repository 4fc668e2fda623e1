package io.statesync.serde.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * A binary decoder for untrusted payloads. Avro allocates a string, bytes or collection at the length the data
 * claims before reading it, so a 30-byte record claiming 2^30 items exhausts the heap. Here no length or item
 * count may exceed the payload's size (every item of statesync's schemas takes at least one byte), which turns
 * such a record into an {@link IOException}. One instance per thread, re-aimed at each payload.
 */
public final class BoundedDecoder extends Decoder {

    private static final ThreadLocal<BoundedDecoder> LOCAL = ThreadLocal.withInitial(BoundedDecoder::new);
    /** Strings up to this size are read through the thread's scratch buffer; a longer one gets its own array. */
    private static final int SCRATCH_LIMIT = 64 * 1024;

    private BinaryDecoder in;
    private int bound;
    /** Decoding a string copies its bytes into the String anyway, so they are read here first, not into a new array. */
    private byte[] scratch = new byte[256];

    private BoundedDecoder() {
    }

    /** This thread's decoder, reading {@code length} bytes of {@code data} from {@code offset}. */
    public static BoundedDecoder over(byte[] data, int offset, int length) {
        BoundedDecoder d = LOCAL.get();
        d.in = DecoderFactory.get().binaryDecoder(data, offset, length, d.in);
        d.bound = length;
        return d;
    }

    /** Whether every byte of the payload has been read. */
    public boolean isEnd() throws IOException {
        return in.isEnd();
    }

    @Override
    public String readString() throws IOException {
        int length = length(in.readLong(), "string");
        byte[] bytes = length <= scratch.length ? scratch : length <= SCRATCH_LIMIT ? grownScratch(length) : new byte[length];
        in.readFixed(bytes, 0, length);
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private byte[] grownScratch(int length) {
        scratch = new byte[Math.min(SCRATCH_LIMIT, Math.max(length, scratch.length * 2))];
        return scratch;
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        int length = length(in.readLong(), "string");
        Utf8 out = old != null ? old : new Utf8();
        out.setByteLength(length);
        in.readFixed(out.getBytes(), 0, length);
        return out;
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        int length = length(in.readLong(), "bytes");
        ByteBuffer out = old != null && old.capacity() >= length ? old.clear() : ByteBuffer.allocate(length);
        in.readFixed(out.array(), out.arrayOffset(), length);
        return out.limit(length);
    }

    @Override
    public long readArrayStart() throws IOException {
        return count(in.readArrayStart());
    }

    @Override
    public long arrayNext() throws IOException {
        return count(in.arrayNext());
    }

    @Override
    public long readMapStart() throws IOException {
        return count(in.readMapStart());
    }

    @Override
    public long mapNext() throws IOException {
        return count(in.mapNext());
    }

    private int length(long claimed, String what) throws IOException {
        if (claimed < 0 || claimed > bound) {
            throw new IOException("a " + what + " claims " + claimed + " bytes in a " + bound + "-byte payload");
        }
        return (int) claimed;
    }

    private long count(long claimed) throws IOException {
        if (claimed > bound) {
            throw new IOException("a collection claims " + claimed + " items in a " + bound + "-byte payload");
        }
        return claimed;
    }

    // Everything below reads a bounded amount and goes straight to the binary decoder.

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public void skipString() throws IOException {
        in.skipString();
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipBytes();
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(length);
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public long skipArray() throws IOException {
        return in.skipArray();
    }

    @Override
    public long skipMap() throws IOException {
        return in.skipMap();
    }

    @Override
    public int readIndex() throws IOException {
        return in.readIndex();
    }
}
