package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.avro.Value;
import io.statesync.testing.RandomValues;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValueAwareDatumWriterTest {

    @Test
    void shouldWriteTheBytesAvroWritesForRandomTrees() throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 500; i++) {
            Value tree = RandomValues.node(random, 4);
            assertThat(handWritten(tree)).as("tree %s", tree).isEqualTo(avroWritten(tree));
        }
    }

    @Test
    void shouldWriteTheBytesAvroWritesForValuesInsideAResource() throws IOException {
        Resource r = resource(RandomValues.node(new SplittableRandom(7), 5));

        assertThat(handWritten(r)).isEqualTo(avroWritten(r));
    }

    @Test
    void shouldWriteDecodedTreesWhoseStringsAreUtf8() throws IOException {
        Resource original = resource(RandomValues.node(new SplittableRandom(11), 4));
        byte[] bytes = avroWritten(original);
        Resource decoded = new SpecificDatumReader<>(Resource.class).read(null, DecoderFactory.get().binaryDecoder(bytes, null));

        assertThat(handWritten(decoded)).isEqualTo(bytes);
    }

    @Test
    void shouldRefuseANodeAvroRefusesToo() {
        Value bad = new Value(Map.of("replicas", new Value(3)));

        assertThatThrownBy(() -> handWritten(bad)).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> avroWritten(bad)).isInstanceOf(RuntimeException.class);
    }

    private static Resource resource(Value spec) {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default").setName("shop").setUid("u")
            .setResourceVersion("1").setGeneration(1).setCreationTimestamp(Instant.ofEpochMilli(1)).build();
        return Resource.newBuilder().setMetadata(meta).setSpec(spec)
            .setStatus(ResourceStatus.newBuilder().setSyncStatus(SyncStatus.OutOfSync).build()).build();
    }

    private static <T extends SpecificRecord> byte[] handWritten(T record) throws IOException {
        return write(new ValueAwareDatumWriter<>(record.getSchema(), ClassResolvedUnionData.forClass(record.getClass())), record);
    }

    private static <T extends SpecificRecord> byte[] avroWritten(T record) throws IOException {
        return write(new SpecificDatumWriter<>(record.getSchema()), record);
    }

    private static <T> byte[] write(DatumWriter<T> writer, T record) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
        writer.write(record, enc);
        enc.flush();
        return bytes.toByteArray();
    }
}
