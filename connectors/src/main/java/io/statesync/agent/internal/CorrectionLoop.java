package io.statesync.agent.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.statesync.avro.Correction;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll thread: hands corrections to the {@link KeyedExecutor}, and commits each partition up to its lowest
 * correction that is not yet applied and reported. The consumer is touched from this thread only.
 */
public final class CorrectionLoop implements ConsumerRebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(CorrectionLoop.class);
    private static final Duration REPORT_RETRY = Duration.ofMillis(500);

    private record Done(TopicPartition tp, long offset) {
    }

    private final Consumer<String, Correction> consumer;
    private final String topic;
    private final Set<String> kinds;
    private final KeyedExecutor executor;
    private final CorrectionHandler handler;
    private final int maxInFlight;
    private final Duration revokeGrace;
    private final OffsetLedger ledger = new OffsetLedger();
    private final ConcurrentLinkedQueue<Done> done = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    public CorrectionLoop(Consumer<String, Correction> consumer, String topic, Set<String> kinds,
                          KeyedExecutor executor, CorrectionHandler handler, int maxInFlight, Duration revokeGrace) {
        this.consumer = consumer;
        this.topic = topic;
        this.kinds = Set.copyOf(kinds);
        this.executor = executor;
        this.handler = handler;
        this.maxInFlight = maxInFlight;
        this.revokeGrace = revokeGrace;
    }

    public void subscribe() {
        consumer.subscribe(List.of(topic), this);
    }

    /** One round: poll, dispatch, commit what finished, pause when too much is in flight. */
    public void pollOnce(Duration timeout) {
        for (ConsumerRecord<String, Correction> record : consumer.poll(timeout)) {
            dispatch(record);
        }
        commitFinished();
        Set<TopicPartition> assigned = consumer.assignment();
        if (ledger.pending() >= maxInFlight) {
            consumer.pause(assigned);
        } else if (!consumer.paused().isEmpty()) {
            consumer.resume(consumer.paused());
        }
    }

    public void stop() {
        running.set(false);
    }

    public boolean isRunning() {
        return running.get();
    }

    /** Uncommitted corrections still being applied or reported. */
    public int inFlight() {
        return ledger.pending();
    }

    private void dispatch(ConsumerRecord<String, Correction> record) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        long offset = record.offset();
        ledger.started(tp, offset);
        Correction c = record.value();
        if (c == null || !(kinds.isEmpty() || kinds.contains(c.getKind()))) {
            ledger.finished(tp, offset);
            return;
        }
        executor.submit(record.key() == null ? c.getKind() + "/" + c.getNamespace() + "/" + c.getName() : record.key(),
            () -> handleUntilReported(c, tp, offset));
    }

    /** A report that is not acknowledged is retried: committing past it would lose the correction. */
    private void handleUntilReported(Correction c, TopicPartition tp, long offset) {
        while (running.get()) {
            try {
                handler.handle(c);
                done.add(new Done(tp, offset));
                return;
            } catch (ObservedReporter.ReportFailedException e) {
                LOG.warn("Report for {} failed; retrying", c.getCommandId(), e);
                sleep(REPORT_RETRY);
            } catch (RuntimeException e) {
                // A bug in a report builder must not wedge the partition: count the correction as handled.
                LOG.error("Unexpected failure handling {}; skipping it", c.getCommandId(), e);
                done.add(new Done(tp, offset));
                return;
            }
        }
    }

    /** Commits every partition up to its lowest unfinished offset. */
    public void commitFinished() {
        for (Done d; (d = done.poll()) != null; ) {
            ledger.finished(d.tp(), d.offset());
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = ledger.takeCommittable();
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets);
            ledger.committed(offsets);
        }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        long deadline = System.nanoTime() + revokeGrace.toNanos();
        while (partitions.stream().anyMatch(tp -> ledger.pending(tp) > 0) && System.nanoTime() < deadline) {
            for (Done d; (d = done.poll()) != null; ) {
                ledger.finished(d.tp(), d.offset());
            }
            sleep(Duration.ofMillis(10));
        }
        try {
            commitFinished();
        } catch (RuntimeException e) {
            LOG.warn("Commit on revocation failed; the new owner re-applies from the last commit", e);
        }
        partitions.forEach(ledger::forget);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        LOG.info("Assigned {}", partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        partitions.forEach(ledger::forget);
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
