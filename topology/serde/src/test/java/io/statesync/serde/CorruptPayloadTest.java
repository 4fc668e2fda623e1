package io.statesync.serde;

import java.util.Arrays;
import java.util.Map;

import io.statesync.avro.Resource;
import io.statesync.registry.MockSchemaRegistry;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Whatever happens to the bytes, the deserializer either decodes them or says why, as a SerdeException. */
class CorruptPayloadTest {

    private static final String SCOPE = "corrupt-payload-test";
    private static final byte[] REPLACEMENTS = {0x00, 0x01, 0x02, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    private final Serde<Resource> serde = AvroSerdes.specific(Resource.class,
        Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE), false);

    @AfterEach
    void forgetRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void shouldDecodeOrRaiseSerdeExceptionForEveryByteReplacedAndEveryTruncation() {
        byte[] valid = serde.serializer().serialize("t", SerdeFixtures.resource());
        int failures = 0;
        for (int position = 0; position < valid.length; position++) {
            for (byte replacement : REPLACEMENTS) {
                byte[] corrupt = valid.clone();
                corrupt[position] = replacement;
                failures += decodeOrSerdeException(corrupt, "byte " + position + " = " + replacement);
            }
            failures += decodeOrSerdeException(Arrays.copyOf(valid, position), "cut to " + position + " bytes");
        }
        // Most corruptions must be caught; a few land in string contents and still decode.
        assertThat(failures).isGreaterThan(valid.length);
    }

    private int decodeOrSerdeException(byte[] bytes, String what) {
        try {
            serde.deserializer().deserialize("t", bytes);
            return 0;
        } catch (SerdeException e) {
            assertThat(e.topic()).isEqualTo("t");
            return 1;
        } catch (RuntimeException | Error e) {
            return fail("%s escaped as %s", what, e);
        }
    }
}
