package io.statesync.serde;

import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.registry.MockSchemaRegistry;
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

    private static <T extends SpecificRecord> byte[] serialized(Class<T> type, T record) {
        try (Serde<T> serde = AvroSerdes.specific(type, CONFIG, false)) {
            return serde.serializer().serialize("statesync.sized-" + type.getSimpleName(), record);
        }
    }
}
