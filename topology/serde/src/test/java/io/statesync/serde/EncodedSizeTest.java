package io.statesync.serde;

import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.avro.Value;
import io.statesync.registry.MockSchemaRegistry;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EncodedSizeTest {

    private static final String SCOPE = "encoded-size-test";
    private static final Map<String, String> CONFIG = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);

    @AfterEach
    void forgetRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void shouldMeasureExactlyTheBytesTheSerializerWrites() {
        MockSchemaRegistry.forScope(SCOPE);
        assertThat(EncodedSize.of(SerdeFixtures.resource(), Long.MAX_VALUE))
            .isEqualTo(serialized(Resource.class, SerdeFixtures.resource()).length);
        assertThat(EncodedSize.of(SerdeFixtures.desired(), Long.MAX_VALUE))
            .isEqualTo(serialized(DesiredState.class, SerdeFixtures.desired()).length);
    }

    @Test
    void shouldStopAtTheLimitWithLimitPlusOne() {
        long size = EncodedSize.of(SerdeFixtures.resource(), Long.MAX_VALUE);

        assertThat(EncodedSize.of(SerdeFixtures.resource(), size)).isEqualTo(size);
        assertThat(EncodedSize.of(SerdeFixtures.resource(), size - 1)).isEqualTo(size);
        assertThat(EncodedSize.of(SerdeFixtures.resource(), 10)).isEqualTo(11);
    }

    @Test
    void shouldBoundEveryRecordFromAboveAndGiveUpOnADatumItCannotWalk() {
        assertThat(EncodedSize.atMost(SerdeFixtures.resource())).isGreaterThanOrEqualTo(EncodedSize.of(SerdeFixtures.resource(), Long.MAX_VALUE));
        assertThat(EncodedSize.atMost(SerdeFixtures.desired())).isGreaterThanOrEqualTo(EncodedSize.of(SerdeFixtures.desired(), Long.MAX_VALUE));

        // A generic record in place of a Value node: Avro writes it, the walk over generated classes does not know it.
        GenericData.Record node = new GenericData.Record(Value.getClassSchema());
        node.put(0, "x");
        DesiredState d = SerdeFixtures.desired();
        d.setSpec(new Value(List.of(node)));

        assertThat(EncodedSize.atMost(d)).isEqualTo(Long.MAX_VALUE);
        assertThat(EncodedSize.of(d, Long.MAX_VALUE)).isGreaterThan(EncodedSize.WIRE_PREFIX);
    }

    private static <T extends SpecificRecord> byte[] serialized(Class<T> type, T record) {
        try (Serde<T> serde = AvroSerdes.specific(type, CONFIG, false)) {
            return serde.serializer().serialize("statesync.sized-" + type.getSimpleName(), record);
        }
    }
}
