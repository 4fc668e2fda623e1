package io.statesync.connect;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.avro.ObservedState;
import io.statesync.connect.internal.ObservedItemMapper;
import io.statesync.connect.internal.SeenSet;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the endpoint every poll interval and emits a report for each new or changed item and a tombstone for each
 * item that disappeared. The value is the {@link ObservedState} itself; {@link AvroValueConverter} writes it.
 */
public class HttpObservedSourceTask extends SourceTask {

    private static final Logger LOG = LoggerFactory.getLogger(HttpObservedSourceTask.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String SEEN = "seen";

    private final Clock clock;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private HttpObservedSourceConfig config;
    private ObservedItemMapper mapper;
    private HttpClient client;
    private Map<String, String> partition;
    private SeenSet seen = SeenSet.empty();
    private Instant nextPoll = Instant.MIN;

    public HttpObservedSourceTask() {
        this(Clock.systemUTC());
    }

    HttpObservedSourceTask(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void start(Map<String, String> props) {
        config = new HttpObservedSourceConfig(props);
        mapper = new ObservedItemMapper(pointers(config), config.getString(HttpObservedSourceConfig.REPORTER));
        client = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        partition = Map.of("url", config.getString(HttpObservedSourceConfig.LIST_URL));
        Map<String, Object> offset = context.offsetStorageReader().offset(partition);
        seen = SeenSet.decode(offset == null ? null : (String) offset.get(SEEN));
        LOG.info("Starting with {} items seen before", seen.size());
    }

    private static ObservedItemMapper.Pointers pointers(HttpObservedSourceConfig c) {
        return new ObservedItemMapper.Pointers(
            c.getString(HttpObservedSourceConfig.ITEMS_POINTER), c.getString(HttpObservedSourceConfig.KIND_POINTER),
            c.getString(HttpObservedSourceConfig.KIND_DEFAULT), c.getString(HttpObservedSourceConfig.NAMESPACE_POINTER),
            c.getString(HttpObservedSourceConfig.NAMESPACE_DEFAULT), c.getString(HttpObservedSourceConfig.NAME_POINTER),
            c.getString(HttpObservedSourceConfig.STATE_POINTER), c.getString(HttpObservedSourceConfig.GENERATION_POINTER),
            c.getString(HttpObservedSourceConfig.UID_POINTER), c.getString(HttpObservedSourceConfig.STATUS_POINTER),
            c.getString(HttpObservedSourceConfig.ACK_POINTER));
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        long waitMs = nextPoll == Instant.MIN ? 0 : nextPoll.toEpochMilli() - clock.millis();
        if (waitMs > 0 && stopped.await(waitMs, TimeUnit.MILLISECONDS)) {
            return null;
        }
        nextPoll = clock.instant().plus(config.pollInterval());
        JsonNode response;
        try {
            response = fetch();
        } catch (IOException | RuntimeException e) {
            // Without a list nothing can be said about deletions; report nothing and try next interval.
            LOG.warn("Listing {} failed: {}", partition.get("url"), e.toString());
            return null;
        }
        List<SourceRecord> records = changes(mapper.map(response, clock.instant()));
        return records.isEmpty() ? null : records;
    }

    /**
     * The records for one list. Every record but the last carries the previous seen set as its offset: if the worker
     * stops half-way, the restarted task reports the whole change again instead of skipping part of it.
     */
    List<SourceRecord> changes(Map<String, ObservedState> current) {
        List<String> keys = new ArrayList<>();
        List<ObservedState> values = new ArrayList<>();
        current.forEach((key, report) -> {
            if (seen.changed(key, report)) {
                keys.add(key);
                values.add(report);
            }
        });
        for (String key : seen.keys()) {
            if (!current.containsKey(key)) {
                keys.add(key);
                values.add(null);
            }
        }
        SeenSet next = SeenSet.of(current);
        Map<String, String> before = Map.of(SEEN, seen.encode());
        Map<String, String> after = Map.of(SEEN, next.encode());
        List<SourceRecord> out = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            out.add(new SourceRecord(partition, i == keys.size() - 1 ? after : before,
                config.getString(HttpObservedSourceConfig.TOPIC), null, Schema.STRING_SCHEMA, keys.get(i),
                null, values.get(i)));
        }
        seen = next;
        return out;
    }

    private JsonNode fetch() throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(config.getString(HttpObservedSourceConfig.LIST_URL)))
            .timeout(config.timeout())
            .header("Accept", "application/json");
        Password auth = config.authHeaderValue();
        if (auth != null) {
            b.header(config.getString(HttpObservedSourceConfig.AUTH_HEADER_NAME), auth.value());
        }
        HttpResponse<String> response = client.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("GET returned " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }

    @Override
    public void stop() {
        stopped.countDown();
    }

    @Override
    public String version() {
        return Versions.PLUGIN;
    }
}
