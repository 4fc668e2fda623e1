package io.statesync.topology;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The instance's own consumers beside Kafka Streams (the REST server's admission replies, the resource view's tail of
 * statesync.resources, the event history): group-less, read_committed, each polled by one {@link CommittedTailer}.
 */
public final class ReadCommittedConsumers {

    private ReadCommittedConsumers() {
    }

    /** A consumer whose partitions are assigned by hand and that sees committed records only. */
    public static Map<String, Object> readCommittedProps(AppConfig config, String clientSuffix) {
        Map<String, Object> p = config.clientProps(AppConfig.CONSUMER_PREFIX);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, config.getString(AppConfig.APPLICATION_ID) + clientSuffix + "-"
            + Integer.toHexString(System.identityHashCode(p)));
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return p;
    }

    /**
     * Assigns every partition of {@code topic} and positions the consumer at their ends, resolved before this returns:
     * seekToEnd is lazy, and a consumer that awaits answers to its own writes must start before any of them.
     */
    public static List<TopicPartition> assignAtEnd(Consumer<?, ?> consumer, String topic) {
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position);
        return parts;
    }

    public static Thread startDaemon(Runnable loop, String name) {
        Thread t = new Thread(loop, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Wakes the poll loop (its caller has set its closed flag), waits for it, then closes the consumer. */
    public static void stop(Consumer<?, ?> consumer, Thread poller) {
        if (consumer == null) {
            return;
        }
        consumer.wakeup();
        if (poller != null) {
            try {
                poller.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
    }
}
