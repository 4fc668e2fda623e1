package io.statesync.serde.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Value;
import io.statesync.schemas.Values;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClassResolvedUnionDataTest {

    @Test
    void shouldWriteEveryValueBranchLikeAvroItself() throws IOException {
        Value tree = Values.fromJava(Map.of("s", "x", "n", 3L, "d", 1.5, "b", true, "l", List.of(1L, "two"),
            "m", Map.of("nested", Map.of()), "z", java.util.Collections.singletonMap("k", null)));
        ClassResolvedUnionData fast = ClassResolvedUnionData.forClass(Value.class);
        // Twice: the second write is served from the cache and must still match.
        assertThat(encode(fast, tree)).isEqualTo(encode(SpecificData.getForClass(Value.class), tree));
        assertThat(encode(fast, tree)).isEqualTo(encode(SpecificData.getForClass(Value.class), tree));
    }

    @Test
    void shouldStillRejectADatumNoBranchAccepts() {
        ClassResolvedUnionData fast = ClassResolvedUnionData.forClass(Value.class);
        Schema union = Value.getClassSchema().getField("value").schema();
        assertThatThrownBy(() -> fast.resolveUnion(union, 1)).isInstanceOf(org.apache.avro.UnresolvedUnionException.class);
        assertThatThrownBy(() -> fast.resolveUnion(union, 1)).isInstanceOf(org.apache.avro.UnresolvedUnionException.class);
    }

    @Test
    void shouldResolveGenericRecordsByTheirSchemaNotTheirClass() {
        Schema a = Schema.createRecord("A", null, "t", false, List.of());
        Schema b = Schema.createRecord("B", null, "t", false, List.of());
        Schema union = Schema.createUnion(a, b);
        ClassResolvedUnionData fast = ClassResolvedUnionData.forClass(Value.class);
        assertThat(fast.resolveUnion(union, new GenericData.Record(a))).isZero();
        assertThat(fast.resolveUnion(union, new GenericData.Record(b))).isEqualTo(1);
    }

    @Test
    void shouldResolveGeneratedEnumsByClass() {
        Schema union = Schema.createUnion(Schema.create(Schema.Type.NULL), io.statesync.avro.EventType.getClassSchema());
        ClassResolvedUnionData fast = ClassResolvedUnionData.forClass(Value.class);
        assertThat(fast.resolveUnion(union, io.statesync.avro.EventType.Accepted)).isEqualTo(1);
        assertThat(fast.resolveUnion(union, io.statesync.avro.EventType.Converged)).isEqualTo(1);
        assertThat(fast.resolveUnion(union, null)).isZero();
    }

    private static byte[] encode(SpecificData model, Value v) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<Value>(Value.getClassSchema(), model).write(v, enc);
        enc.flush();
        return out.toByteArray();
    }
}
