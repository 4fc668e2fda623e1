package io.statesync.serde;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

import io.statesync.serde.internal.ClassResolvedUnionData;
import io.statesync.serde.internal.EncodedSizeBound;
import io.statesync.serde.internal.ValueAwareDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The size a record has on a topic, measured by encoding it into a counter that stops at a limit, so measuring a
 * record that is too large allocates nothing and costs no more than the limit. It encodes with the serializer's own
 * writer, made once per class, since admission measures every write and Avro's generic writer costs several times as much.
 */
public final class EncodedSize {

    private static final ClassValue<DatumWriter<SpecificRecord>> WRITERS = new ClassValue<>() {
        @Override
        protected DatumWriter<SpecificRecord> computeValue(Class<?> type) {
            return new ValueAwareDatumWriter<>(SpecificData.get().getSchema(type), ClassResolvedUnionData.forClass(type));
        }
    };

    /** The Confluent wire format's prefix before the Avro bytes: the magic byte and the schema id. */
    public static final int WIRE_PREFIX = WireFormat.HEADER_SIZE;

    private EncodedSize() {
    }

    /** The record's bytes on a topic (prefix included), or {@code limit + 1} as soon as it passes {@code limit}. */
    public static long of(SpecificRecord record, long limit) {
        Counter counter = new Counter(limit - WIRE_PREFIX);
        DatumWriter<SpecificRecord> writer = WRITERS.get(record.getClass());
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(counter, null);
        try {
            writer.write(record, encoder);
            encoder.flush();
        } catch (Passed passed) {
            return limit + 1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counter.count + WIRE_PREFIX;
    }

    /**
     * At least the record's bytes on a topic, added up from its schema without encoding it, and often more: a text
     * counts three bytes per char. {@link Long#MAX_VALUE} when the record holds a datum the walk does not know. A
     * caller whose limit the bound passes measures the record with {@link #of}.
     */
    public static long atMost(SpecificRecord record) {
        try {
            return EncodedSizeBound.record(record.getSchema(), record) + WIRE_PREFIX;
        } catch (EncodedSizeBound.Unsized | ClassCastException | NullPointerException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Thrown by the counter to stop the encoder at the limit. */
    private static final class Passed extends IOException {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    private static final class Counter extends OutputStream {
        private final long limit;
        private long count;

        Counter(long limit) {
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            add(1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            add(len);
        }

        private void add(long n) throws IOException {
            count += n;
            if (count > limit) {
                throw new Passed();
            }
        }
    }
}
