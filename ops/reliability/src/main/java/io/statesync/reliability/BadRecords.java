package io.statesync.reliability;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Generates hostile input for statesync's input topics, one kind of damage per {@link Damage}, each with the DLQ
 * reasons it may legitimately end up under. There is no null-key damage: every input topic is compacted, and the broker
 * itself rejects a keyless record there ("Compacted topic cannot accept message without key"), so it never reaches us.
 */
final class BadRecords {

    enum Damage {
        RANDOM_BYTES(Set.of("Deserialization")),
        WRONG_MAGIC_BYTE(Set.of("Deserialization")),
        UNKNOWN_SCHEMA_ID(Set.of("Deserialization")),
        TRUNCATED_AVRO(Set.of("Deserialization")),
        // Avro schema resolution may succeed with defaults and then fail on identity, so three answers are right.
        WRONG_SCHEMA(Set.of("Deserialization", "InvalidValue", "KeyMismatch")),
        INVALID_KEY(Set.of("InvalidKey")),
        NON_UTF8_KEY(Set.of("InvalidKey")),
        KEY_VALUE_MISMATCH(Set.of("KeyMismatch")),
        HUGE_SPEC(Set.of("TooLarge")),
        DEEP_NESTING(Set.of("TooDeep")),
        OBSERVED_GARBAGE(Set.of("Deserialization"));

        final Set<String> reasons;

        Damage(Set<String> reasons) {
            this.reasons = reasons;
        }
    }

    static final int DEEP_LEVELS = 10_000;
    /**
     * A DesiredState with a null spec ends in spec, expectedResourceVersion, patch, createOnly, ownerReferences (an
     * empty array), fieldManager, force and managedFields, one zero byte each.
     */
    private static final int TRAILING_ZERO_BYTES = 8;
    private static final List<String> INVALID_KEYS = List.of("", "no-slashes", "webApp/default/x", "WebApp/UPPER/x",
        "WebApp/default/", "WebApp.statesync.io/default/x", "WebApp/default/x/extra", "WebApp/default/" + "a".repeat(300), "WebApp/de fault/x");

    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final SplittableRandom random;
    private final int hugeBytes;
    private final byte[] validDesired;
    private final byte[] wrongSchema;
    private final byte[] validKind;

    BadRecords(TopicNames topics, TopologySerdes serdes, long seed, int hugeBytes) {
        this.topics = topics;
        this.serdes = serdes;
        this.random = new SplittableRandom(seed);
        this.hugeBytes = hugeBytes;
        this.validDesired = serdes.desired().serializer().serialize(topics.desired(), desired("Fuzz/default/x", Map.of("a", 1L)));
        // A real, registered schema id, but of another record type (registered under a subject of its own).
        ReconcileEvent event = ReconcileEvent.newBuilder().setEventId("e").setType(EventType.Normal)
            .setTimestamp(java.time.Instant.EPOCH).build();
        this.wrongSchema = serdes.event().serializer().serialize(topics.prefix() + "fuzz-wrong-schema", event);
        this.validKind = serdes.kindPolicy().serializer().serialize(topics.kinds(), io.statesync.avro.KindPolicy.newBuilder()
            .setKind("FuzzKind").setValidationRules(List.of(new io.statesync.avro.ValidationRule("false", "", ""))).build());
    }

    /**
     * A damaged record for statesync.kinds under {@code kind}: random bytes, a wrong magic byte, an unknown schema id,
     * truncated Avro, or a registered schema of another record type. None of them decodes as a kind policy.
     */
    ProducerRecord<byte[], byte[]> damagedKind(String kind) {
        byte[] value = switch (random.nextInt(5)) {
            case 0 -> randomBytes(1 + random.nextInt(200), true);
            case 1 -> withByte(validKind, 0, (byte) (1 + random.nextInt(255)));
            case 2 -> withSchemaId(validKind);
            case 3 -> Arrays.copyOf(validKind, 5 + random.nextInt(validKind.length - 5));
            default -> wrongSchema;
        };
        return new ProducerRecord<>(topics.kinds(), utf8(kind), value);
    }

    /** A record for statesync.kinds whose key is not a kind, or not UTF-8; the value is a valid policy. */
    ProducerRecord<byte[], byte[]> badKindKey() {
        byte[] key = random.nextBoolean() ? new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc0}
            : utf8(List.of("", "lower", "Has/Slash", "A".repeat(80), "Spa ce").get(random.nextInt(5)));
        return new ProducerRecord<>(topics.kinds(), key, validKind);
    }

    Damage pick() {
        Damage[] all = Damage.values();
        return all[random.nextInt(all.length)];
    }

    ProducerRecord<byte[], byte[]> make(Damage damage, int i) {
        byte[] key = utf8("Fuzz/default/bad-" + i);
        return switch (damage) {
            case RANDOM_BYTES -> desired(key, randomBytes(1 + random.nextInt(200), true));
            case WRONG_MAGIC_BYTE -> desired(key, withByte(validDesired, 0, (byte) (1 + random.nextInt(255))));
            case UNKNOWN_SCHEMA_ID -> desired(key, unknownSchemaId());
            case TRUNCATED_AVRO -> desired(key, Arrays.copyOf(validDesired, 5 + random.nextInt(validDesired.length - 5)));
            case WRONG_SCHEMA -> desired(key, wrongSchema);
            case INVALID_KEY -> desired(utf8(INVALID_KEYS.get(random.nextInt(INVALID_KEYS.size()))),
                random.nextBoolean() ? null : validDesired);
            case NON_UTF8_KEY -> desired(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc0}, validDesired);
            case KEY_VALUE_MISMATCH -> desired(key, validDesired);
            case HUGE_SPEC -> desired(key, serialize(desired(new String(key, StandardCharsets.UTF_8),
                Map.of("blob", "x".repeat(hugeBytes)))));
            case DEEP_NESTING -> desired(key, deeplyNested(new String(key, StandardCharsets.UTF_8)));
            case OBSERVED_GARBAGE -> new ProducerRecord<>(topics.observed(), key, randomBytes(1 + random.nextInt(200), false));
        };
    }

    /** A valid desired write whose key and value agree, to interleave with the damage. */
    DesiredState good(String key, int i) {
        return desired(key, Map.of("replicas", (long) i, "image", "nginx:" + i));
    }

    static DesiredState desired(String key, Map<String, Object> spec) {
        String[] parts = key.split("/", 3);
        return DesiredState.newBuilder().setKind(parts[0]).setNamespace(parts[1]).setName(parts[2])
            .setSpec(Values.fromJava(spec)).build();
    }

    private ProducerRecord<byte[], byte[]> desired(byte[] key, byte[] value) {
        return new ProducerRecord<>(topics.desired(), key, value);
    }

    private byte[] serialize(DesiredState d) {
        return serdes.desired().serializer().serialize(topics.desired(), d);
    }

    private byte[] unknownSchemaId() {
        return withSchemaId(validDesired);
    }

    private byte[] withSchemaId(byte[] valid) {
        byte[] out = valid.clone();
        ByteBuffer.wrap(out).putInt(1, 0x7ff00000 + random.nextInt(0xfffff));
        return out;
    }

    /**
     * Hand-encoded, because encoding a tree this deep with Avro's recursive writer would overflow our own stack:
     * the spec is a Value that is a list holding a list ... {@link #DEEP_LEVELS} times, ending in null.
     * DesiredState ends with spec and the fields after it, each one zero byte when null, false or empty.
     */
    private byte[] deeplyNested(String key) {
        byte[] shallow = serialize(desired(key, null));
        ByteBuffer out = ByteBuffer.allocate(shallow.length + 3 * DEEP_LEVELS);
        out.put(shallow, 0, shallow.length - TRAILING_ZERO_BYTES);
        for (int level = 0; level < DEEP_LEVELS; level++) {
            out.put((byte) 0x0a).put((byte) 0x02); // union branch 5 (array), then a block of one item
        }
        out.put((byte) 0x00); // the innermost Value is null
        for (int level = 0; level < DEEP_LEVELS; level++) {
            out.put((byte) 0x00); // end of each array
        }
        out.put((byte) 0x00); // expectedResourceVersion: null
        out.put((byte) 0x00); // patch: null
        out.put((byte) 0x00); // createOnly: false
        out.put((byte) 0x00); // ownerReferences: empty
        out.put((byte) 0x00); // fieldManager: null
        out.put((byte) 0x00); // force: false
        out.put((byte) 0x00); // managedFields: null
        return Arrays.copyOf(out.array(), out.position());
    }

    private byte[] randomBytes(int n, boolean nonZeroFirst) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        if (nonZeroFirst && b[0] == 0) {
            b[0] = 1;
        }
        return b;
    }

    private static byte[] withByte(byte[] bytes, int index, byte value) {
        byte[] out = bytes.clone();
        out[index] = value;
        return out;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
