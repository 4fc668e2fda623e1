package io.statesync.rest.internal;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.view.ResourceView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/** What the server asks the cluster about the resources topic: its partitions' offsets, its id and tombstone retention. */
public final class ResourcesTopicQueries implements AutoCloseable {

    private final String topic;
    private final Admin admin;

    public ResourcesTopicQueries(AppConfig config, String topic) {
        this.topic = topic;
        this.admin = Admin.create(adminProps(config));
    }

    /**
     * Offsets of the first {@code partitions} partitions: {@code earliest} is the log start (a watch from before it is
     * 410 Gone), {@code latest} read_committed is the end a list waits for; 503 when the cluster does not answer.
     */
    public long[] offsets(OffsetSpec spec, int partitions) {
        Map<TopicPartition, OffsetSpec> query = new LinkedHashMap<>();
        for (int p = 0; p < partitions; p++) {
            query.put(new TopicPartition(topic, p), spec);
        }
        try {
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> r = admin.listOffsets(query,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get(10, TimeUnit.SECONDS);
            long[] out = new long[partitions];
            r.forEach((tp, info) -> out[tp.partition()] = info.offset());
            return out;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw ApiError.unavailable("cannot read the offsets of " + topic + ": " + e.getMessage(), 1);
        }
    }

    /** The topic's id and tombstone retention, which decide whether the view's snapshot may be used. */
    public ResourceView.TopicFacts facts() {
        try {
            String id = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).topicId().toString();
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            ConfigEntry retention = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource)
                .get(TopicConfig.DELETE_RETENTION_MS_CONFIG);
            return new ResourceView.TopicFacts(id, retention == null ? 0 : Long.parseLong(retention.value()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> adminProps(AppConfig config) {
        Map<String, Object> p = config.clientProps(AppConfig.ADMIN_PREFIX);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", config.getList(AppConfig.BOOTSTRAP_SERVERS)));
        return p;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
