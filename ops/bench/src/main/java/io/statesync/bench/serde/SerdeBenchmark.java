package io.statesync.bench.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.statesync.avro.Resource;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.serde.AvroSerdes;
import io.statesync.serde.SerdeConfig;
import io.statesync.testing.SampleRecords;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Serialize and deserialize a typical {@link Resource} with statesync's Confluent-wire serdes (registry id
 * cached, as in steady state), against plain Avro on the same record: a SpecificDatumWriter/Reader with reused
 * encoder and decoder and no wire header, registry or checks. The ratio is what the wire layer costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class SerdeBenchmark {

    private static final String TOPIC = "statesync.resources";
    private static final String SCOPE = "serde-benchmark";

    private Resource resource;
    private Serializer<Resource> serializer;
    private Deserializer<Resource> deserializer;
    private byte[] wireBytes;

    private final DatumWriter<Resource> plainWriter = new SpecificDatumWriter<>(Resource.class);
    private final DatumReader<Resource> plainReader = new SpecificDatumReader<>(Resource.class);
    private final ByteArrayOutputStream plainOut = new ByteArrayOutputStream(1024);
    private BinaryEncoder plainEncoder;
    private BinaryDecoder plainDecoder;
    private byte[] plainBytes;

    @Setup
    public void setUp() throws IOException {
        resource = typicalResource();
        Serde<Resource> serde = AvroSerdes.specific(Resource.class,
            Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, "mock://" + SCOPE), false);
        serializer = serde.serializer();
        deserializer = serde.deserializer();
        wireBytes = serializer.serialize(TOPIC, resource);
        plainBytes = baselineSerialize();
        if (!deserializer.deserialize(TOPIC, wireBytes).equals(resource) || !baselineDeserialize().equals(resource)) {
            throw new IllegalStateException("round trip changed the record");
        }
    }

    @TearDown
    public void tearDown() {
        MockSchemaRegistry.dropScope(SCOPE);
    }

    @Benchmark
    public byte[] serialize() {
        return serializer.serialize(TOPIC, resource);
    }

    @Benchmark
    public Resource deserialize() {
        return deserializer.deserialize(TOPIC, wireBytes);
    }

    @Benchmark
    public byte[] baselineSerialize() throws IOException {
        plainOut.reset();
        plainEncoder = EncoderFactory.get().binaryEncoder(plainOut, plainEncoder);
        plainWriter.write(resource, plainEncoder);
        plainEncoder.flush();
        return plainOut.toByteArray();
    }

    @Benchmark
    public Resource baselineDeserialize() throws IOException {
        plainDecoder = DecoderFactory.get().binaryDecoder(plainBytes, plainDecoder);
        return plainReader.read(null, plainDecoder);
    }

    // The same pairs again, run at the same time on two threads: on a machine shared with other work both sides
    // then see the same load, so the ratio of the two scores stays meaningful when the absolute figures do not.

    @Benchmark
    @Group("serializeSideBySide")
    @GroupThreads(1)
    public byte[] wire() {
        return serialize();
    }

    @Benchmark
    @Group("serializeSideBySide")
    @GroupThreads(1)
    public byte[] plain() throws IOException {
        return baselineSerialize();
    }

    @Benchmark
    @Group("deserializeSideBySide")
    @GroupThreads(1)
    public Resource wireRead() {
        return deserialize();
    }

    @Benchmark
    @Group("deserializeSideBySide")
    @GroupThreads(1)
    public Resource plainRead() throws IOException {
        return baselineDeserialize();
    }

    /** A WebApp as the resources topic holds it: metadata, an 8-field spec with a nested list, one condition. */
    static Resource typicalResource() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("image", "nginx:1.21");
        spec.put("replicas", 5);
        spec.put("port", 8080);
        spec.put("env", Map.of("ENV", "production", "LOG_LEVEL", "info"));
        spec.put("cpu", 0.5);
        spec.put("enabled", true);
        spec.put("containers", List.of(Map.of("name", "web", "memory", "256Mi"), Map.of("name", "sidecar")));
        spec.put("note", null);
        return SampleRecords.webApp(spec, Instant.parse("2026-01-02T03:04:05.678Z"));
    }
}
