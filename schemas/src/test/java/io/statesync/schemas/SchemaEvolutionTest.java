package io.statesync.schemas;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schemas on the topics evolve BACKWARD: a consumer with the new schema must read everything already written.
 * The v1 snapshots under {@code compat/v1} are the schemas as first published; the current ones must read them.
 */
class SchemaEvolutionTest {

    static Stream<Class<? extends SpecificRecord>> topicValueTypes() {
        return Stream.of(DesiredState.class, ObservedState.class, Correction.class, Resource.class,
            ReconcileEvent.class, KindPolicy.class);
    }

    @ParameterizedTest
    @MethodSource("topicValueTypes")
    void shouldReadEveryPublishedV1SchemaWithTheCurrentSchema(Class<? extends SpecificRecord> type) throws IOException {
        Schema v1 = resource("compat/v1/" + type.getSimpleName() + ".avsc");
        Schema current = schemaOf(type);

        var result = SchemaCompatibility.checkReaderWriterCompatibility(current, v1);

        assertThat(result.getType())
            .as("%s: %s", type.getSimpleName(), result.getResult().getIncompatibilities())
            .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    @ParameterizedTest
    @MethodSource("topicValueTypes")
    void shouldGiveEveryEnumADefault(Class<? extends SpecificRecord> type) {
        for (Schema s : reachable(schemaOf(type))) {
            if (s.getType() == Schema.Type.ENUM) {
                assertThat(s.getEnumDefault()).as("default of enum %s", s.getFullName()).isNotNull();
            }
        }
    }

    @Test
    void shouldReadV1DataWithV2ReaderSchemaFillingNewFieldsFromDefaults() throws IOException {
        DesiredState v1 = DesiredState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setLabels(Map.of("team", "web")).setSpec(Values.fromJava(Map.of("replicas", 2)))
            .setExpectedResourceVersion("7").build();
        Schema v2 = resource("evolution/DesiredState-v2.avsc");

        GenericRecord read = read(write(new SpecificDatumWriter<>(DesiredState.class), v1),
            new GenericDatumReader<>(DesiredState.SCHEMA$, v2));

        assertThat(read.get("priority")).isEqualTo(0);
        assertThat(read.get("owner")).isNull();
        assertThat(read.get("name").toString()).isEqualTo("shop");
        assertThat(read.get("expectedResourceVersion").toString()).isEqualTo("7");
        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(v2, DesiredState.SCHEMA$).getType())
            .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    }

    @Test
    void shouldReadUnknownEnumSymbolFromNewerWriterAsTheEnumDefault() throws IOException {
        Schema v2 = resource("evolution/Correction-v2.avsc");
        GenericRecord restart = new GenericData.Record(v2);
        v2.getFields().stream().filter(Schema.Field::hasDefaultValue)
            .forEach(f -> restart.put(f.name(), GenericData.get().getDefaultValue(f)));
        restart.put("commandId", "c-1");
        restart.put("kind", "WebApp");
        restart.put("namespace", "default");
        restart.put("name", "shop");
        restart.put("action", new GenericData.EnumSymbol(v2.getField("action").schema(), "RESTART"));
        restart.put("issuedAt", 1L);
        restart.put("deadline", 2L);

        Correction read = read(write(new GenericDatumWriter<>(v2), restart),
            new SpecificDatumReader<>(v2, Correction.SCHEMA$));

        assertThat(read.getAction()).isEqualTo(Action.UPDATE);
        assertThat(read.getIssuedAt()).isEqualTo(Instant.ofEpochMilli(1));
    }

    @Test
    void shouldRejectNewFieldWithoutDefaultAsBackwardIncompatible() throws IOException {
        Schema v1 = resource("compat/v1/KindPolicy.avsc");
        Schema broken = new Schema.Parser().parse(v1.toString().replace("\"fields\":[",
            "\"fields\":[{\"name\":\"owner\",\"type\":\"string\"},"));

        assertThat(SchemaCompatibility.checkReaderWriterCompatibility(broken, v1).getType())
            .isEqualTo(SchemaCompatibilityType.INCOMPATIBLE);
    }

    private static Schema schemaOf(Class<? extends SpecificRecord> type) {
        try {
            return (Schema) type.getField("SCHEMA$").get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Schema resource(String path) throws IOException {
        try (InputStream in = SchemaEvolutionTest.class.getClassLoader().getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            return new Schema.Parser().parse(in);
        }
    }

    private static Set<Schema> reachable(Schema root) {
        Set<Schema> seen = new HashSet<>();
        Deque<Schema> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            Schema s = todo.pop();
            if (!seen.add(s)) {
                continue;
            }
            switch (s.getType()) {
                case RECORD -> s.getFields().forEach(f -> todo.push(f.schema()));
                case UNION -> s.getTypes().forEach(todo::push);
                case ARRAY -> todo.push(s.getElementType());
                case MAP -> todo.push(s.getValueType());
                default -> { }
            }
        }
        return seen;
    }

    private static <T> byte[] write(DatumWriter<T> writer, T datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(datum, enc);
        enc.flush();
        return out.toByteArray();
    }

    private static <T> T read(byte[] bytes, org.apache.avro.io.DatumReader<T> reader) throws IOException {
        return reader.read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    }
}
