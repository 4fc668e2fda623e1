package io.statesync.bench.system;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.rest.RestContext;
import io.statesync.topology.ReadCommittedConsumers;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Suite 8's floor: the least that answers an awaited PUT as statesync's REST does, under the same exactly-once
 * Streams properties, so that what 64 connections reach through it bounds what statesync can reach on a machine.
 * A PUT is parsed as statesync parses it and produced to the desired topic with a request id; one processor decodes
 * it, bumps the generation in a cached, logged store and publishes the Resource with the request id; a read_committed
 * consumer of the resources topic hands that Resource back as the answer. It asks for no commits: Kafka Streams
 * commits every {@code admission.commit.interval.ms} (its commit.interval.ms), and at once after a quiet spell, as
 * its stream threads commit as soon as an interval has passed.
 *
 * <p>Left out, each of which statesync pays for: validation, preconditions, the revision counter, events, timers,
 * corrections, the reconcile pass, the resource view and its read-back, and any limit on commits.
 */
final class WriteFloor implements AutoCloseable {

    private static final String STORE = "write-floor";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AppConfig config;
    private final TopicNames topics;
    private final TopologySerdes serdes;
    private final Map<String, CompletableFuture<byte[]>> pending = new ConcurrentHashMap<>();
    private final StreamsRun streams;
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> replies;
    private final Thread poller;
    private final Javalin http;
    private volatile boolean closed;
    private volatile boolean ready;

    private WriteFloor(AppConfig config) {
        this.config = config;
        this.topics = new TopicNames(config.topicPrefix());
        this.serdes = new TopologySerdes(config);
        Properties props = StatesyncTopology.streamsProperties(config, StreamsRun.unexportedMetrics());
        long gapMs = config.getLong(AppConfig.ADMISSION_COMMIT_INTERVAL_MS);
        if (gapMs > 0) {
            props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, gapMs);
        }
        this.streams = new StreamsRun(topology(), props);
        this.producer = new KafkaProducer<>(Map.of("bootstrap.servers", String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)),
            "linger.ms", 0, "enable.idempotence", true), new StringSerializer(), new ByteArraySerializer());
        this.replies = new KafkaConsumer<>(ReadCommittedConsumers.readCommittedProps(config, "-floor-replies"),
            new StringDeserializer(), new ByteArrayDeserializer());
        this.poller = ReadCommittedConsumers.startDaemon(this::pollReplies, "write-floor-replies");
        this.http = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.startupWatcherEnabled = false;
            c.routes.put("/api/v1/resources/{kind}/{namespace}/{name}", this::put);
        });
    }

    /** A started floor whose streams run and whose reply consumer sits at the end of the resources topic. */
    static WriteFloor start(AppConfig config) throws InterruptedException {
        WriteFloor f = new WriteFloor(config);
        f.streams.start().awaitRunning(Duration.ofMinutes(2));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!f.ready) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the floor's reply consumer did not start");
            }
            Thread.sleep(20);
        }
        f.http.start("127.0.0.1", 0);
        return f;
    }

    int port() {
        return http.port();
    }

    private Topology topology() {
        Topology t = new Topology();
        t.addSource("desired", Serdes.String().deserializer(), Serdes.ByteArray().deserializer(), topics.desired());
        t.addProcessor("admit", () -> new Admit(serdes, topics), "desired");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(), serdes.resource())
            .withCachingEnabled(), "admit");
        t.addSink("resources", topics.resources(), Serdes.String().serializer(), serdes.resource().serializer(), "admit");
        return t;
    }

    private void put(Context ctx) throws Exception {
        ResourceKey key = ResourceKey.of(ctx.pathParam("kind"), ctx.pathParam("namespace"), ctx.pathParam("name"));
        JsonNode doc = JSON.readTree(ctx.bodyAsBytes());
        DesiredState desired = RestContext.desired(key, doc, null);
        String requestId = UUID.randomUUID().toString();
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        pending.put(requestId, answer);
        try {
            ProducerRecord<String, byte[]> rec = new ProducerRecord<>(topics.desired(), key.toString(),
                serdes.desired().serializer().serialize(topics.desired(), desired));
            rec.headers().add(StatesyncHeaders.REQUEST_ID, requestId.getBytes(StandardCharsets.UTF_8));
            producer.send(rec);
            byte[] stored = answer.get(30, TimeUnit.SECONDS);
            Resource r = serdes.resource().deserializer().deserialize(topics.resources(), stored);
            ctx.contentType("application/json").result(JSON.writeValueAsBytes(RestContext.toJson(r)));
        } finally {
            pending.remove(requestId);
        }
    }

    private void pollReplies() {
        try {
            ReadCommittedConsumers.assignAtEnd(replies, topics.resources());
            ready = true;
            while (!closed) {
                replies.poll(Duration.ofMillis(500)).forEach(this::onReply);
            }
        } catch (WakeupException e) {
            // close() woke us up
        }
    }

    private void onReply(ConsumerRecord<String, byte[]> record) {
        String requestId = StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.REQUEST_ID);
        CompletableFuture<byte[]> f = requestId == null ? null : pending.remove(requestId);
        if (f != null) {
            f.complete(record.value());
        }
    }

    @Override
    public void close() throws InterruptedException {
        http.stop();
        closed = true;
        ReadCommittedConsumers.stop(replies, poller);
        producer.close();
        streams.close();
    }

    /** Decodes a write, bumps its generation, publishes the Resource with the write's request id. */
    private static final class Admit implements Processor<String, byte[], String, Resource> {
        private final Deserializer<DesiredState> desired;
        private final TopicNames topics;
        private ProcessorContext<String, Resource> context;
        private KeyValueStore<String, Resource> store;

        Admit(TopologySerdes serdes, TopicNames topics) {
            this.desired = serdes.desired().deserializer();
            this.topics = topics;
        }

        @Override
        public void init(ProcessorContext<String, Resource> context) {
            this.context = context;
            this.store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, byte[]> record) {
            DesiredState d = desired.deserialize(topics.desired(), record.headers(), record.value());
            Resource previous = store.get(record.key());
            long generation = previous == null ? 1 : previous.getMetadata().getGeneration() + 1;
            ObjectMeta meta = ObjectMeta.newBuilder().setKind(d.getKind()).setNamespace(d.getNamespace()).setName(d.getName())
                .setUid(record.key()).setGeneration(generation).setResourceVersion(Long.toString(generation))
                .setCreationTimestamp(Instant.ofEpochMilli(record.timestamp())).build();
            Resource r = Resource.newBuilder().setMetadata(meta).setSpec(d.getSpec())
                .setStatus(ResourceStatus.newBuilder().setSyncStatus(SyncStatus.Progressing).build()).build();
            store.put(record.key(), r);
            context.forward(new Record<>(record.key(), r, record.timestamp(), record.headers()));
        }
    }
}
