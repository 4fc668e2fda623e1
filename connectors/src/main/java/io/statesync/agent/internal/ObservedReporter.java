package io.statesync.agent.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.avro.ObservedState;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * Sends reports and waits for the broker's acknowledgement: a correction's offset is committed only once its report
 * is durable, which is what makes the agent at-least-once end to end.
 */
public final class ObservedReporter {

    private final Producer<String, ObservedState> producer;
    private final String topic;
    private final Duration ackTimeout;

    public ObservedReporter(Producer<String, ObservedState> producer, String topic, Duration ackTimeout) {
        this.producer = producer;
        this.topic = topic;
        this.ackTimeout = ackTimeout;
    }

    public void sendAndAwait(ObservedState report) throws ReportFailedException {
        sendAllAndAwait(List.of(report));
    }

    /** Sends every report before waiting, so a resync of many resources costs one round of acks. */
    public void sendAllAndAwait(List<ObservedState> reports) throws ReportFailedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>(reports.size());
        try {
            for (ObservedState report : reports) {
                acks.add(send(report));
            }
        } catch (KafkaException e) {
            // Serialization (e.g. a registry hiccup) fails inside send(); it is as retryable as a missing ack.
            throw new ReportFailedException(e);
        }
        if (reports.size() > 1) {
            producer.flush();
        }
        await(acks);
    }

    private Future<RecordMetadata> send(ObservedState report) {
        String key = report.getKind() + "/" + report.getNamespace() + "/" + report.getName();
        return producer.send(new ProducerRecord<>(topic, key, report));
    }

    private void await(List<Future<RecordMetadata>> acks) throws ReportFailedException {
        try {
            for (Future<RecordMetadata> ack : acks) {
                ack.get(ackTimeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new ReportFailedException(e.getCause() == null ? e : e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReportFailedException(e);
        }
    }

    /** A report that was not acknowledged; its correction must not be committed. */
    public static final class ReportFailedException extends Exception {
        public ReportFailedException(Throwable cause) {
            super("ObservedState report not acknowledged: " + cause, cause);
        }
    }
}
