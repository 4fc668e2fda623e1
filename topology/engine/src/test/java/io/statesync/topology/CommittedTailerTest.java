package io.statesync.topology;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.config.AppConfig;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CommittedTailerTest {

    private static final TopicPartition TP = new TopicPartition("t", 0);
    private static final AppConfig CONFIG = new AppConfig(Map.of(AppConfig.BOOTSTRAP_SERVERS, "localhost:1",
        AppConfig.SCHEMA_REGISTRY_URL, "http://localhost:1", AppConfig.LOOP_RESTART_BACKOFF_MS, 1L));

    /** Records what the tailer asked of it. */
    private static final class Recording implements CommittedTailer.Reader {
        final AtomicInteger assigns = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();
        final List<String> values = new CopyOnWriteArrayList<>();
        final List<RuntimeException> stops = new CopyOnWriteArrayList<>();

        @Override
        public void assign(Consumer<String, byte[]> consumer) {
            assigns.incrementAndGet();
            consumer.assign(List.of(TP));
            consumer.seek(TP, 0);
        }

        @Override
        public void resume(Consumer<String, byte[]> consumer) {
            resumes.incrementAndGet();
        }

        @Override
        public void polled(Consumer<String, byte[]> consumer, ConsumerRecords<String, byte[]> records) {
            records.forEach(r -> values.add(new String(r.value())));
        }

        @Override
        public void stopped(RuntimeException failure) {
            stops.add(failure == null ? new RuntimeException("closed") : failure);
        }
    }

    @Test
    void shouldAssignOnceAndAfterAFailedPollResumeFromTheConsumersPositions() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        Recording reader = new Recording();
        try (CommittedTailer tailer = new CommittedTailer("test-tailer", () -> consumer, Duration.ofMillis(10), reader, CONFIG)
                .start()) {
            consumer.schedulePollTask(() -> consumer.addRecord(record(0, "a")));
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.values.size() == 1);
            assertThat(tailer.positioned()).isTrue();
            consumer.setPollException(new KafkaException("broker gone"));
            await().atMost(Duration.ofSeconds(5)).until(() -> reader.resumes.get() == 1);
            consumer.schedulePollTask(() -> consumer.addRecord(record(1, "b")));

            await().atMost(Duration.ofSeconds(5)).until(() -> reader.values.size() == 2);
            assertThat(reader.values).containsExactly("a", "b");
            assertThat(reader.assigns.get()).isEqualTo(1);
            assertThat(reader.stops).extracting(Throwable::getMessage).containsExactly("broker gone");
            assertThat(tailer.loop().restarts()).isEqualTo(1);
        }
    }

    @Test
    void shouldStopItsThreadAndCloseTheConsumerOnClose() {
        MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
        consumer.updateBeginningOffsets(Map.of(TP, 0L));
        Recording reader = new Recording();
        CommittedTailer tailer = new CommittedTailer("test-tailer", () -> consumer, Duration.ofMillis(10), reader, CONFIG).start();
        await().atMost(Duration.ofSeconds(5)).until(tailer::positioned);

        tailer.close();

        assertThat(tailer.stopped()).isTrue();
        assertThat(tailer.positioned()).isFalse();
        assertThat(consumer.closed()).isTrue();
        assertThat(reader.stops).extracting(Throwable::getMessage).containsExactly("closed");
        assertThat(tailer.loop().livenessProblem()).isNull();
    }

    private static ConsumerRecord<String, byte[]> record(long offset, String value) {
        return new ConsumerRecord<>(TP.topic(), TP.partition(), offset, "k", value.getBytes());
    }
}
