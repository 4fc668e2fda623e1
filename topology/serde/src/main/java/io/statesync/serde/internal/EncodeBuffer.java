package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import io.statesync.serde.WireFormat;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/**
 * A per-thread output buffer and Avro encoder, reused from record to record so that serializing allocates
 * only the result. Kafka Streams calls one serializer from several stream threads, hence one per thread.
 */
public final class EncodeBuffer extends ByteArrayOutputStream {

    /** A buffer grown past this by one large record is dropped rather than kept for the thread's life. */
    private static final int KEEP_LIMIT = 1 << 20;
    private static final ThreadLocal<EncodeBuffer> LOCAL = ThreadLocal.withInitial(EncodeBuffer::new);

    private final byte[] header = new byte[WireFormat.HEADER_SIZE];
    private BinaryEncoder encoder;

    private EncodeBuffer() {
        super(512);
    }

    /** The wire-format bytes of a datum: header with the schema id, then its Avro encoding. */
    public static <D> byte[] encode(int schemaId, DatumWriter<D> writer, D datum) throws IOException {
        EncodeBuffer b = LOCAL.get();
        try {
            byte[] out = b.encodeInto(schemaId, writer, datum);
            if (b.buf.length > KEEP_LIMIT) {
                LOCAL.remove();
            }
            return out;
        } catch (IOException | RuntimeException e) {
            // A failed write may leave bytes in the encoder's buffer; start the next record from scratch.
            LOCAL.remove();
            throw e;
        }
    }

    private <D> byte[] encodeInto(int schemaId, DatumWriter<D> writer, D datum) throws IOException {
        reset();
        encoder = EncoderFactory.get().binaryEncoder(this, encoder);
        // One bulk write: each of ByteArrayOutputStream's single-byte writes takes its lock.
        header[0] = WireFormat.MAGIC_BYTE;
        header[1] = (byte) (schemaId >>> 24);
        header[2] = (byte) (schemaId >>> 16);
        header[3] = (byte) (schemaId >>> 8);
        header[4] = (byte) schemaId;
        write(header, 0, header.length);
        writer.write(datum, encoder);
        encoder.flush();
        return toByteArray();
    }
}
