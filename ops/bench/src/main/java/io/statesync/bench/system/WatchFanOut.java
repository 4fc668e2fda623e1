package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.config.AppConfig;
import io.statesync.schemas.Values;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Watch fan-out: {@value #CLIENTS} SSE clients watch one namespace of instance A while desired writes arrive at a
 * steady {@value #RATE}/s over {@value #NAMES} names; the lag of each delivery runs from the write's intended send
 * time (carried in its spec) to the event's arrival at the client, so it covers admission, the EOS commit, the
 * resource view and the SSE write. The watched namespace holds only these resources, so the clients' initial
 * snapshot is small.
 */
final class WatchFanOut {

    static final int CLIENTS = 100;
    static final int RATE = 200;
    static final int NAMES = 1_000;
    private static final String NAMESPACE = "fanout";
    private static final long DRAIN_MS = 15_000;

    private final AppConfig config;
    private final int port;
    private final double seconds;
    private int written;

    WatchFanOut(AppConfig config, int port, double seconds) {
        this.config = config;
        this.port = port;
        this.seconds = seconds;
    }

    String run(int runs) throws Exception {
        Table table = new Table(String.format("Watch fan-out: %d SSE clients, %d changes/s for %.0f s (ms from write to delivery, per client and change)",
            CLIENTS, RATE, seconds), "run", "delivered / expected", "p50", "p99", "p99.9", "max");
        List<double[]> samples = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            double[] s = once(table, r == 0 ? "warm-up (discarded)" : String.valueOf(r));
            if (r > 0) {
                samples.add(s);
            }
        }
        table.row(RestSuite.medians(samples, "**median**", ""));
        return table.render();
    }

    private double[] once(Table table, String run) throws Exception {
        List<WatchClient> clients = new ArrayList<>();
        try {
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(new WatchClient(port, "/api/v1/watch?namespace=" + NAMESPACE, c, written).start());
            }
            for (WatchClient c : clients) {
                if (!c.awaitOpen(30_000)) {
                    throw new IllegalStateException("a watch client did not get its stream");
                }
            }
            long count = write();
            long delivered = awaitDelivered(clients, count * CLIENTS);
            List<Histogram> lags = new ArrayList<>();
            for (WatchClient c : clients) {
                lags.add(c.lag());
            }
            Latencies l = Latencies.of(Latencies.merge(lags));
            table.row(run, String.format("%,d / %,d", delivered, count * CLIENTS), l.p50(), l.p99(), l.p999(), l.max());
            System.err.printf("  watch %s: %,d / %,d delivered, p99 %.1f ms%n", run, delivered, count * CLIENTS, l.p99());
            return new double[] {l.p50(), l.p99(), l.p999(), l.max()};
        } finally {
            for (WatchClient c : clients) {
                c.close();
            }
        }
    }

    /** Waits up to {@value #DRAIN_MS} ms for every client to have seen every write; returns the deliveries seen. */
    private static long awaitDelivered(List<WatchClient> clients, long expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + DRAIN_MS;
        long delivered = 0;
        while (System.currentTimeMillis() < deadline) {
            delivered = clients.stream().mapToLong(WatchClient::delivered).sum();
            if (delivered >= expected) {
                break;
            }
            Thread.sleep(50);
        }
        return delivered;
    }

    /** Writes at {@value #RATE}/s, each spec carrying its global index and intended send time. */
    private long write() throws Exception {
        TopicNames topics = new TopicNames(config.topicPrefix());
        Serializer<DesiredState> ser = new TopologySerdes(config).desired().serializer();
        int base = written;
        try (KafkaProducer<String, byte[]> producer = Workload.latencyProducer(config)) {
            OpenLoop.Done done = new OpenLoop(RATE).run(seconds, (i, due) -> {
                int seq = base + (int) i;
                String name = "w-" + seq % NAMES;
                Map<String, Object> spec = new LinkedHashMap<>();
                spec.put("image", "nginx:1.25");
                spec.put(WatchClient.SEQ, (long) seq);
                spec.put(WatchClient.SENT, due);
                DesiredState d = DesiredState.newBuilder().setKind("WebApp").setNamespace(NAMESPACE).setName(name)
                    .setSpec(Values.fromJava(spec)).build();
                producer.send(new ProducerRecord<>(topics.desired(), "WebApp/" + NAMESPACE + "/" + name, ser.serialize(topics.desired(), d)));
            });
            written += (int) done.count();
            return done.count();
        }
    }
}
