package io.statesync.rest.internal;

import java.time.Duration;
import java.util.Map;

import io.statesync.config.AppConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** The REST server's own consumers: group-less, read_committed, each polled by one daemon thread. */
final class ConsumerThreads {

    static final int BULK_MAX_POLL_RECORDS = 5_000;
    static final int BULK_MAX_PARTITION_FETCH_BYTES = 8 * 1024 * 1024;
    static final int BULK_FETCH_MAX_BYTES = 64 * 1024 * 1024;

    private ConsumerThreads() {
    }

    /** A consumer whose partitions are assigned by hand and that sees committed records only. */
    static Map<String, Object> readCommittedProps(AppConfig config, String clientSuffix) {
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
     * {@link #readCommittedProps} with larger polls and fetches, for a consumer that reads a whole topic at start: the
     * defaults (500 records per poll, 1 MiB per partition) make a million-record catch-up thousands of round trips.
     * Values the operator set with the {@code consumer.} prefix are kept.
     */
    static Map<String, Object> bulkReadProps(AppConfig config, String clientSuffix) {
        Map<String, Object> p = readCommittedProps(config, clientSuffix);
        p.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, BULK_MAX_POLL_RECORDS);
        p.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, BULK_MAX_PARTITION_FETCH_BYTES);
        p.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, BULK_FETCH_MAX_BYTES);
        return p;
    }

    static Thread startDaemon(Runnable loop, String name) {
        Thread t = new Thread(loop, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Wakes the poll loop (its caller has set its closed flag), waits for it, then closes the consumer. */
    static void stop(KafkaConsumer<?, ?> consumer, Thread poller) {
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
