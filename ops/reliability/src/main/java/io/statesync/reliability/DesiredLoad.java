package io.statesync.reliability;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.avro.DesiredState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Steady desired writes at a fixed rate over a key space, each with a spec unique to it ({@code seq}), recording
 * which ones the broker acknowledged (acks=all): those are the writes that must never be lost.
 */
final class DesiredLoad implements AutoCloseable {

    private final ScenarioTarget target;
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;

    DesiredLoad(ScenarioTarget target, String kind, int keys, int perSecond) {
        this(target, kind, keys, perSecond, true);
    }

    /**
     * @param startNow false to only prepare the writer (its schema id resolved and cached, so it can write while the
     *                 registry is down) and wait for {@link #start()}
     */
    DesiredLoad(ScenarioTarget target, String kind, int keys, int perSecond, boolean startNow) {
        this.target = target;
        Serializer<DesiredState> values = target.serdes().desired().serializer();
        values.serialize(target.topics().desired(), BadRecords.desired(kind + "/default/warm-up", Map.of("seq", -1)));
        thread = new Thread(() -> loop(kind, keys, perSecond, values), "desired-load");
        thread.setDaemon(true);
        if (startNow) {
            thread.start();
        }
    }

    void start() {
        thread.start();
    }

    private void loop(String kind, int keys, int perSecond, Serializer<DesiredState> values) {
        Map<String, Object> props = new HashMap<>(target.clientProps());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), values)) {
            for (long seq = 0; running.get(); seq++) {
                String key = kind + "/default/key-" + (seq % keys);
                DesiredState d = BadRecords.desired(key, Map.of("seq", seq));
                String id = key + "#" + seq;
                producer.send(new ProducerRecord<>(target.topics().desired(), key, d), (m, e) -> {
                    if (e == null) {
                        acked.add(id);
                    }
                });
                Waits.sleep(1000L / perSecond);
            }
        }
    }

    /** key#seq of every acknowledged write. */
    Set<String> acked() {
        return acked;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        if (thread.isAlive()) {
            thread.join(30_000);
        }
    }
}
