package io.statesync.serde;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.registry.RegisteredSchema;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroSerdeTest {

    private static final String SCOPE = "avro-serde-test";
    private static final Map<String, String> CONFIG = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);

    private final MockSchemaRegistry registry = MockSchemaRegistry.forScope(SCOPE);

    @AfterEach
    void forgetRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void shouldWriteMagicByteAndRegisteredIdThenAvroAndReadItBack() {
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);
        Resource resource = SerdeFixtures.resource();

        byte[] bytes = serde.serializer().serialize("statesync.resources", resource);

        int id = registry.lookup("statesync.resources-value", Resource.SCHEMA$).orElseThrow().id();
        assertThat(bytes[0]).isEqualTo((byte) 0);
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
        assertThat(WireFormat.schemaId(bytes)).hasValue(id);
        assertThat(serde.deserializer().deserialize("statesync.resources", bytes)).isEqualTo(resource);
    }

    @Test
    void shouldRegisterKeysUnderTheKeySubject() {
        Serde<DesiredState> serde = AvroSerdes.specific(DesiredState.class, CONFIG, true);

        serde.serializer().serialize("statesync.desired", SerdeFixtures.desired());

        assertThat(registry.lookup("statesync.desired-key", DesiredState.SCHEMA$)).isPresent();
        assertThat(registry.lookup("statesync.desired-value", DesiredState.SCHEMA$)).isEmpty();
    }

    @Test
    void shouldReadStringsOfEverySizeAroundTheDecodersScratchBuffer() {
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);
        for (int size : new int[] {0, 1, 255, 256, 257, 5_000, 64 * 1024, 64 * 1024 + 1, 200_000, 3}) {
            Resource r = SerdeFixtures.resource();
            // Long and short strings in one record, in both orders: a short one read after a long one must not
            // carry the long one's bytes.
            String longer = "é".repeat(size / 2) + "x".repeat(size % 2);
            r.getMetadata().setLabels(Map.of("a", longer, "b", "short", "c", longer + "z"));
            r.getMetadata().setName("shop-" + size);

            Resource back = serde.deserializer().deserialize("statesync.resources", serde.serializer().serialize("statesync.resources", r));

            assertThat(back).as("size %d", size).isEqualTo(r);
        }
    }

    @Test
    void shouldKeepTombstonesNull() {
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);

        assertThat(serde.serializer().serialize("statesync.resources", null)).isNull();
        assertThat(serde.deserializer().deserialize("statesync.resources", null)).isNull();
    }

    @Test
    void shouldAskTheRegistryOncePerTopicAndOncePerId() {
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);
        byte[] bytes = serde.serializer().serialize("statesync.resources", SerdeFixtures.resource());
        Serde<Resource> reader = AvroSerdes.specific(Resource.class, CONFIG, false);
        reader.deserializer().deserialize("statesync.resources", bytes);
        int calls = registry.calls();

        for (int i = 0; i < 10; i++) {
            serde.serializer().serialize("statesync.resources", SerdeFixtures.resource());
            reader.deserializer().deserialize("statesync.resources", bytes);
        }

        assertThat(registry.calls()).isEqualTo(calls);
        serde.serializer().serialize("other.resources", SerdeFixtures.resource());
        assertThat(registry.calls()).isEqualTo(calls + 1);
    }

    @Test
    void shouldReadAnOlderWriterSchemaIntoTheCurrentClassWithDefaults() {
        Schema older = SchemaBuilder.record("DesiredState").namespace("io.statesync.avro").fields()
            .requiredString("kind").requiredString("namespace").requiredString("name")
            .name("spec").type(DesiredState.SCHEMA$.getField("spec").schema()).noDefault().endRecord();
        GenericRecord old = new GenericData.Record(older);
        old.put("kind", "WebApp");
        old.put("namespace", "default");
        old.put("name", "shop");
        old.put("spec", new GenericData.Record(older.getField("spec").schema()));
        byte[] bytes = AvroSerdes.generic(CONFIG, false).serializer().serialize("statesync.desired", old);

        DesiredState read = AvroSerdes.specific(DesiredState.class, CONFIG, false).deserializer()
            .deserialize("statesync.desired", bytes);

        assertThat(read.getName()).isEqualTo("shop");
        assertThat(read.getApiVersion()).isEqualTo("statesync.io/v1");
        assertThat(read.getExpectedResourceVersion()).isNull();
        assertThat(read.getLabels()).isEmpty();
    }

    @Test
    void shouldRoundTripGenericRecordsInTheirWriterSchema() {
        Serde<DesiredState> specific = AvroSerdes.specific(DesiredState.class, CONFIG, false);
        byte[] bytes = specific.serializer().serialize("statesync.desired", SerdeFixtures.desired());
        Serde<GenericRecord> generic = AvroSerdes.generic(CONFIG, false);

        GenericRecord record = generic.deserializer().deserialize("statesync.desired", bytes);

        assertThat(record.get("name")).isEqualTo("shop");
        byte[] again = generic.serializer().serialize("statesync.desired", record);
        assertThat(WireFormat.schemaId(again)).isEqualTo(WireFormat.schemaId(bytes));
        assertThat(specific.deserializer().deserialize("statesync.desired", again)).isEqualTo(SerdeFixtures.desired());
    }

    @Test
    void shouldReadIntoTheClassTheWriterSchemaNamesWhenNoTypeIsGiven() {
        byte[] bytes = AvroSerdes.specific(Resource.class, CONFIG, false).serializer()
            .serialize("t", SerdeFixtures.resource());
        var deserializer = new SpecificAvroDeserializer<>();
        deserializer.configure(CONFIG, false);

        assertThat(deserializer.deserialize("t", bytes)).isEqualTo(SerdeFixtures.resource());
    }

    @Test
    void shouldLookUpInsteadOfRegisteringWhenAutoRegisterIsOff() {
        Map<String, String> noAuto = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE,
            SerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, noAuto, false);

        assertThatThrownBy(() -> serde.serializer().serialize("statesync.resources", SerdeFixtures.resource()))
            .isInstanceOfSatisfying(SerdeException.class, e -> {
                assertThat(e.reason()).isEqualTo(SerdeException.Reason.SCHEMA_NOT_REGISTERED);
                assertThat(e.getMessage()).contains("statesync.resources", "auto.register.schemas");
            });
        assertThat(registry.lookup("statesync.resources-value", Resource.SCHEMA$)).isEmpty();

        int id = registry.register("statesync.resources-value", Resource.SCHEMA$);
        assertThat(WireFormat.schemaId(serde.serializer().serialize("statesync.resources", SerdeFixtures.resource())))
            .hasValue(id);
    }

    @Test
    void shouldFailWithIncompatibleSchemaWhenTheRegistryRejectsIt() {
        Schema withoutKind = SchemaBuilder.record("DesiredState").namespace("io.statesync.avro").fields()
            .requiredString("namespace").requiredString("name").endRecord();
        registry.register("statesync.desired-value", withoutKind);
        Serde<DesiredState> serde = AvroSerdes.specific(DesiredState.class, CONFIG, false);

        assertThatThrownBy(() -> serde.serializer().serialize("statesync.desired", SerdeFixtures.desired()))
            .isInstanceOfSatisfying(SerdeException.class, e -> {
                assertThat(e.reason()).isEqualTo(SerdeException.Reason.INCOMPATIBLE_SCHEMA);
                assertThat(e.isBadData()).isFalse();
                assertThat(e.getMessage()).contains("statesync.desired", "kind");
            });
    }

    @Test
    void shouldReportARecordThatDoesNotMatchItsSchemaAsInvalid() {
        DesiredState missingKind = SerdeFixtures.desired();
        missingKind.setKind(null);
        Serde<DesiredState> serde = AvroSerdes.specific(DesiredState.class, CONFIG, false);

        assertThatThrownBy(() -> serde.serializer().serialize("statesync.desired", missingKind))
            .isInstanceOfSatisfying(SerdeException.class,
                e -> assertThat(e.reason()).isEqualTo(SerdeException.Reason.INVALID_RECORD));
        assertThat(serde.deserializer().deserialize("statesync.desired",
            serde.serializer().serialize("statesync.desired", SerdeFixtures.desired()))).isEqualTo(SerdeFixtures.desired());
    }

    @Test
    void shouldShareOneCacheAcrossThreads() throws Exception {
        Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Resource>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                Resource r = SerdeFixtures.resource();
                r.getMetadata().setName("shop-" + i);
                results.add(pool.submit(() -> serde.deserializer().deserialize("t", serde.serializer().serialize("t", r))));
            }
            for (int i = 0; i < results.size(); i++) {
                assertThat(results.get(i).get().getMetadata().getName()).isEqualTo("shop-" + i);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(registry.lookup("t-value", Resource.SCHEMA$)).map(RegisteredSchema::version).hasValue(1);
    }

    @Test
    void shouldRefuseToWorkBeforeConfigure() {
        assertThatThrownBy(() -> new SpecificAvroSerializer<Resource>().serialize("t", SerdeFixtures.resource()))
            .isInstanceOf(IllegalStateException.class);
    }
}
