package io.statesync.connect;

import java.net.http.HttpClient;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import io.statesync.avro.Correction;
import io.statesync.connect.internal.CorrectionRequests;
import io.statesync.connect.internal.HttpRetrier;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends each correction to the actuator in partition order (so one key's corrections arrive in order). A record that
 * still fails after retries goes to the dead letter queue through the errant record reporter; on a worker without
 * one, the failure is thrown.
 */
public class HttpCorrectionSinkTask extends SinkTask {

    private static final Logger LOG = LoggerFactory.getLogger(HttpCorrectionSinkTask.class);

    private CorrectionRequests requests;
    private HttpRetrier retrier;
    private ErrantRecordReporter errantReporter;

    @Override
    public void start(Map<String, String> props) {
        HttpCorrectionSinkConfig config = new HttpCorrectionSinkConfig(props);
        Password auth = config.authHeaderValue();
        requests = new CorrectionRequests(config.urlTemplate(), config.updateMethod(), config.authHeaderName(),
            auth == null ? null : auth.value(), config.timeout());
        HttpClient client = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        retrier = new HttpRetrier(client, config.maxRetries(), config.retryBackoff(), config.retryBackoffMax(),
            d -> Thread.sleep(d.toMillis()));
        errantReporter = errantReporter();
    }

    private ErrantRecordReporter errantReporter() {
        try {
            return context.errantRecordReporter();
        } catch (NoSuchMethodError | NoClassDefFoundError e) {
            // Workers before Kafka 2.6 have no reporter; failures are then thrown.
            return null;
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (SinkRecord record : records) {
            if (record.value() == null) {
                continue; // corrections is a delete-policy topic; a null value carries no command
            }
            try {
                retrier.send(requests.build(correction(record)));
            } catch (HttpRetrier.HttpDeliveryException | DataException e) {
                failed(record, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConnectException("Interrupted while delivering corrections", e);
            }
        }
    }

    private static Correction correction(SinkRecord record) {
        if (record.value() instanceof Correction c) {
            return c;
        }
        throw new DataException("Expected a Correction (configure value.converter="
            + "io.statesync.connect.AvroValueConverter), got " + record.value().getClass().getName());
    }

    private void failed(SinkRecord record, Exception e) {
        if (errantReporter == null) {
            throw new ConnectException("Correction at " + record.topic() + "-" + record.kafkaPartition() + "@"
                + record.kafkaOffset() + " not delivered", e);
        }
        LOG.warn("Dead-lettering correction at {}-{}@{}: {}", record.topic(), record.kafkaPartition(),
            record.kafkaOffset(), e.getMessage());
        try {
            // Waiting keeps the offset from being committed before the dead letter is durable.
            errantReporter.report(record, e).get();
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while dead-lettering", ie);
        } catch (ExecutionException ee) {
            throw new ConnectException("Dead-lettering failed", ee.getCause());
        }
    }

    @Override
    public void stop() {
    }

    @Override
    public String version() {
        return Versions.PLUGIN;
    }
}
