package io.statesync.serde;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.registry.CompatibilityLevel;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.registry.RegisteredSchema;
import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryException;
import io.statesync.serde.SerdeException.Reason;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.assertj.core.api.ObjectAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AvroDeserializerBadBytesTest {

    private static final String SCOPE = "bad-bytes-test";
    private static final String TOPIC = "statesync.resources";
    private static final Map<String, String> CONFIG = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE);

    private final Serde<Resource> serde = AvroSerdes.specific(Resource.class, CONFIG, false);

    @AfterEach
    void forgetRegistry() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Test
    void shouldRejectWrongMagicByteWithTopicInMessage() {
        byte[] json = "{\"kind\":\"WebApp\"}".getBytes();

        assertReason(json, Reason.WRONG_MAGIC_BYTE).satisfies(e -> {
            assertThat(e.getMessage()).contains(TOPIC, "0x7b");
            assertThat(e.topic()).isEqualTo(TOPIC);
            assertThat(e.isBadData()).isTrue();
        });
    }

    @Test
    void shouldRejectAPayloadShorterThanTheHeaderAsTruncated() {
        assertReason(new byte[] {0, 0, 1}, Reason.TRUNCATED).satisfies(e -> assertThat(e.getMessage()).contains("3 bytes"));
        assertReason(new byte[0], Reason.TRUNCATED);
    }

    @Test
    void shouldRejectAvroDataThatEndsEarlyAsTruncated() {
        byte[] valid = valid();

        assertReason(Arrays.copyOf(valid, valid.length - 3), Reason.TRUNCATED)
            .satisfies(e -> assertThat(e.schemaId()).isEqualTo(WireFormat.schemaId(valid).getAsInt()));
    }

    @Test
    void shouldRejectAnUnknownSchemaId() {
        byte[] bytes = valid();
        ByteBuffer.wrap(bytes).putInt(1, 999);

        assertReason(bytes, Reason.UNKNOWN_SCHEMA_ID).satisfies(e -> {
            assertThat(e.schemaId()).isEqualTo(999);
            assertThat(e.getMessage()).contains("schema id 999");
        });
    }

    @Test
    void shouldRejectAWriterSchemaTheTargetClassCannotRead() {
        Serde<DesiredState> desired = AvroSerdes.specific(DesiredState.class, CONFIG, false);
        byte[] bytes = desired.serializer().serialize(TOPIC, SerdeFixtures.desired());

        assertReason(bytes, Reason.UNREADABLE_SCHEMA)
            .satisfies(e -> assertThat(e.getMessage()).contains("DesiredState", "Resource"));
        assertReason(bytes, Reason.UNREADABLE_SCHEMA);
    }

    @Test
    void shouldRejectASchemaTheRegistryHoldsThatIsNotValidAvro() {
        var deserializer = new SpecificAvroDeserializer<>(Resource.class, new UnreadableRegistry());

        assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {0, 0, 0, 0, 5, 2}))
            .isInstanceOfSatisfying(SerdeException.class, e -> {
                assertThat(e.reason()).isEqualTo(Reason.UNREADABLE_SCHEMA);
                assertThat(e.getMessage()).contains("not valid Avro");
            });
    }

    @Test
    void shouldRejectBytesLeftOverAfterTheRecord() {
        byte[] valid = valid();

        assertReason(Arrays.copyOf(valid, valid.length + 2), Reason.MALFORMED_PAYLOAD)
            .satisfies(e -> assertThat(e.getMessage()).contains("left over"));
    }

    @Test
    void shouldRejectAnImpossibleUnionBranchAsMalformed() {
        byte[] bytes = valid();
        // ResourceStatus.lastObservedAt is a [null, timestamp] union: branch index 1, zigzag 0x02, then a 6-byte
        // timestamp; after it only the health's three one-byte fields (status, empty message, null time), the null
        // reported status and the empty list of reported conditions.
        int branch = bytes.length - 12;
        assertThat(bytes[branch]).isEqualTo((byte) 2);
        bytes[branch] = 0x7e;

        assertReason(bytes, Reason.MALFORMED_PAYLOAD);
    }

    @Test
    void shouldRejectACorruptCollectionLengthWithoutAllocatingIt() {
        byte[] bytes = bareDesired();
        // Header, then apiVersion, kind, namespace and name; then the labels map's item count.
        int labels = WireFormat.HEADER_SIZE + 1 + "statesync.io/v1".length() + 2 + 2 + 2;

        assertDesiredReason(withVarint(bytes, labels, 1L << 30), Reason.MALFORMED_PAYLOAD)
            .satisfies(e -> assertThat(e.getMessage()).contains("claims 1073741824 items"));
    }

    @Test
    void shouldRejectACorruptStringLengthWithoutAllocatingIt() {
        byte[] bytes = bareDesired();

        assertDesiredReason(withVarint(bytes, WireFormat.HEADER_SIZE, 1L << 30), Reason.MALFORMED_PAYLOAD)
            .satisfies(e -> assertThat(e.getMessage()).contains("claims 1073741824 bytes"));
    }

    @Test
    void shouldReportAnUnreachableRegistryAsRetriableNotBadData() {
        var deserializer = new SpecificAvroDeserializer<>(Resource.class, new UnreachableRegistry());

        assertThatThrownBy(() -> deserializer.deserialize(TOPIC, new byte[] {0, 0, 0, 0, 5, 2}))
            .isInstanceOfSatisfying(SerdeException.class, e -> {
                assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAVAILABLE);
                assertThat(e.isRetriable()).isTrue();
                assertThat(e.isBadData()).isFalse();
            });
    }

    private static byte[] bareDesired() {
        Serde<DesiredState> desired = AvroSerdes.specific(DesiredState.class, CONFIG, false);
        return desired.serializer().serialize(TOPIC,
            DesiredState.newBuilder().setKind("K").setNamespace("n").setName("x").build());
    }

    /** The bytes up to {@code at}, then a zigzag varint claiming {@code claim}, then nothing. */
    private static byte[] withVarint(byte[] bytes, int at, long claim) {
        byte[] out = Arrays.copyOf(bytes, at + 10);
        long z = claim << 1;
        int i = at;
        while ((z & ~0x7fL) != 0) {
            out[i++] = (byte) ((z & 0x7f) | 0x80);
            z >>>= 7;
        }
        out[i++] = (byte) z;
        return Arrays.copyOf(out, i);
    }

    private static ObjectAssert<SerdeException> assertDesiredReason(byte[] bytes, Reason reason) {
        return assertReason(AvroSerdes.specific(DesiredState.class, CONFIG, false).deserializer(), bytes, reason);
    }

    private byte[] valid() {
        return serde.serializer().serialize(TOPIC, SerdeFixtures.resource());
    }

    private ObjectAssert<SerdeException> assertReason(byte[] bytes, Reason reason) {
        return assertReason(serde.deserializer(), bytes, reason);
    }

    private static ObjectAssert<SerdeException> assertReason(Deserializer<?> deserializer, byte[] bytes, Reason reason) {
        try {
            deserializer.deserialize(TOPIC, bytes);
        } catch (SerdeException e) {
            assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
            return new ObjectAssert<>(e);
        }
        throw new AssertionError("expected " + reason);
    }

    /** A registry whose every answer is a schema that does not parse. */
    private static class UnreadableRegistry extends UnreachableRegistry {
        @Override
        public Schema getById(int id) {
            throw new SchemaParseException("Undefined name: \"Nope\"");
        }
    }

    /** A registry that is down. */
    private static class UnreachableRegistry implements SchemaRegistryClient {
        @Override
        public int register(String subject, Schema schema) {
            throw down();
        }

        @Override
        public Optional<RegisteredSchema> lookup(String subject, Schema schema) {
            throw down();
        }

        @Override
        public Schema getById(int id) {
            throw down();
        }

        @Override
        public CompatibilityLevel getCompatibility(String subject) {
            throw down();
        }

        @Override
        public void setCompatibility(String subject, CompatibilityLevel level) {
            throw down();
        }

        @Override
        public boolean isCompatible(String subject, Schema schema) {
            throw down();
        }

        private static SchemaRegistryException down() {
            return new SchemaRegistryException("Connection refused (gave up after 6 attempts)",
                SchemaRegistryException.NO_STATUS, SchemaRegistryException.NO_ERROR_CODE, null);
        }
    }
}
