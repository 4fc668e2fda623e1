package io.statesync.view.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.function.Supplier;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import io.statesync.topology.TopicNames;
import io.statesync.view.ResourceView.TopicFacts;
import io.statesync.view.StoredResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the REST view's {@link ViewSnapshot} lives ({@code <state.dir>/<application.id>/rest-view.snapshot}, so that
 * wiping an instance's state wipes it too) and when it is used. Any problem with a snapshot only costs the full read
 * it would have saved: it is logged, and the view reads the topic from the beginning.
 */
final class ViewSnapshotStore {

    private static final Logger LOG = LoggerFactory.getLogger(ViewSnapshotStore.class);

    private final Path file;
    private final String topic;
    private final long maxAgeMs;
    private final Supplier<TopicFacts> facts;
    private final StoredResource.Decoder decoder;
    private volatile String topicId;

    ViewSnapshotStore(Path file, String topic, long maxAgeMs, Supplier<TopicFacts> facts, StoredResource.Decoder decoder) {
        this.file = file;
        this.topic = topic;
        this.maxAgeMs = maxAgeMs;
        this.facts = facts;
        this.decoder = decoder;
    }

    /** The configured store, or null when snapshots are disabled. */
    static ViewSnapshotStore fromConfig(AppConfig config, TopicNames topics, Supplier<TopicFacts> facts,
                                        StoredResource.Decoder decoder) {
        if (!config.getBoolean(ServerConfig.VIEW_SNAPSHOT_ENABLED)) {
            return null;
        }
        Path file = Path.of(config.getString(AppConfig.STATE_DIR), config.getString(AppConfig.APPLICATION_ID),
            "rest-view.snapshot");
        return new ViewSnapshotStore(file, topics.resources(), config.getLong(ServerConfig.VIEW_SNAPSHOT_MAX_AGE_MS), facts, decoder);
    }

    Path file() {
        return file;
    }

    /** The snapshot to start from, or null when there is none or it cannot be used (the reason is logged). */
    ViewSnapshot.Loaded load(long[] logStart, long[] logEnd) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            TopicFacts live = facts.get();
            topicId = live.topicId();
            ViewSnapshot.Header header = ViewSnapshot.readHeader(file);
            String problem = new ViewSnapshotPolicy(topic, Math.min(maxAgeMs, live.deleteRetentionMs()))
                .problem(header, live.topicId(), logStart, logEnd, System.currentTimeMillis());
            if (problem != null) {
                LOG.info("Not using the resource view snapshot {}: {}; reading {} from the beginning", file, problem, topic);
                return null;
            }
            return ViewSnapshot.read(file, decoder);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Not using the resource view snapshot {}: {}; reading {} from the beginning", file, e.toString(), topic);
            return null;
        }
    }

    /** Writes the view ({@code sorted}: one resource per key, in key order) as of {@code positions}. */
    void save(long[] positions, Collection<StoredResource> sorted) {
        try {
            write(positions, sorted);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not write the resource view snapshot {}; the next start reads {} from the beginning", file, topic, e);
        }
    }

    /**
     * Writes the view as {@link #save} does and reads it back: the returned resources are {@code sorted}'s, in the same
     * order, with their values mapped from the file instead of held on the heap.
     */
    StoredResource[] writeAndMap(long[] positions, StoredResource[] sorted) throws IOException {
        write(positions, Arrays.asList(sorted));
        return ViewSnapshot.readMapped(file, decoder, sorted);
    }

    private void write(long[] positions, Collection<StoredResource> sorted) throws IOException {
        long start = System.nanoTime();
        String id = topicId != null ? topicId : facts.get().topicId();
        ViewSnapshot.write(file, new ViewSnapshot.Header(System.currentTimeMillis(), topic, id, positions, sorted.size()), sorted);
        LOG.info("Resource view snapshot written: {} resources to {} in {} ms", sorted.size(), file,
            (System.nanoTime() - start) / 1_000_000);
    }
}
