package io.statesync.rest.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Supplier;

import io.statesync.avro.store.ReconcileState;
import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.server.ServerConfig;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.LagInfo;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * Answers "where is this key" for reads of a key's reconcile state (its diff and diagnosis, and point reads the
 * resource view cannot answer). The active owner serves from its store; any other instance
 * forwards the request there once (a forwarded request is never forwarded again, so a stale view of the
 * assignment cannot loop). When the owner is unknown or unreachable, as during a rebalance, a local standby
 * or restoring copy within {@code max.stale.lag} serves the read; otherwise the answer is 503 with Retry-After.
 */
public final class KeyRouter implements AutoCloseable {

    /** Sent with every forward for the log's sake; only a verified {@link ForwardCredential} marks a request as one. */
    public static final String FORWARDED_HEADER = "X-Statesync-Forwarded";
    /** Names the instance that answered a point read, so that routing is observable. */
    public static final String SERVED_BY_HEADER = "X-Statesync-Served-By";
    /** Marks an answer from a standby or restoring copy; relayed with a forwarded answer, like the other headers. */
    public static final String STALE_HEADER = "X-Statesync-Stale";
    private static final int RETRY_AFTER_SECONDS = 1;
    private static final int CONNECT_TIMEOUT_MS = 2_000;
    private static final int READ_TIMEOUT_MS = 10_000;

    /** A read's outcome: the key's state from a local store (null when absent), or the owner's HTTP answer. */
    public sealed interface Outcome permits Local, Forwarded {
    }

    public record Local(ReconcileState state, boolean stale) implements Outcome {
    }

    public record Forwarded(int status, String contentType, String etag, String retryAfter, String servedBy, boolean stale,
                            byte[] body) implements Outcome {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final AppConfig config;
    private final Supplier<KafkaStreams> streams;
    private final Supplier<HostInfo> self;
    private volatile StoreHandles handles;
    private volatile HostInfo selfHost;
    private volatile String selfText;
    private final OwnerConnections owners;
    private final Function<String, String> roleOf;

    /**
     * @param credential the instances' own credential, which a forward carries instead of the caller's token
     * @param roleOf     the role ({@code reader} or {@code writer}) of an {@code Authorization} header already checked
     */
    public KeyRouter(AppConfig config, Supplier<KafkaStreams> streams, Supplier<HostInfo> self, ForwardCredential credential,
                     Function<String, String> roleOf) {
        this.config = config;
        this.streams = streams;
        this.self = self;
        this.roleOf = roleOf;
        this.owners = new OwnerConnections(CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS, credential, OwnerTls.fromConfig(config));
    }

    /** This instance's host:port as other instances reach it. */
    public String self() {
        String s = selfText;
        if (s == null) {
            HostInfo h = selfHost();
            s = h.host() + ":" + h.port();
            selfText = s;
        }
        return s;
    }

    /** Resolved on first use, once the server is bound (its port is known), then kept: per read it would slow view reads. */
    private HostInfo selfHost() {
        HostInfo h = selfHost;
        if (h == null) {
            h = self.get();
            selfHost = h;
        }
        return h;
    }

    /**
     * Routes a read of {@code key}; when another instance owns it, issues {@code GET path} there.
     *
     * @param authorization    the caller's {@code Authorization} header; only its role crosses to the owner
     * @param alreadyForwarded whether this request came from another instance ({@link ForwardCredential#isForwarded})
     */
    public Outcome route(String key, String pathAndQuery, String authorization, boolean alreadyForwarded) {
        KafkaStreams s = requireStreams();
        KeyQueryMetadata md = s.queryMetadataForKey(StatesyncTopology.STATE_STORE, key, Serdes.String().serializer());
        if (md == null || md == KeyQueryMetadata.NOT_AVAILABLE || md.activeHost() == null
            || md.activeHost().equals(HostInfo.unavailable())) {
            return stale(s, key, partitionOf(key), "the owner of " + key + " is not known (rebalancing)");
        }
        if (!md.activeHost().equals(selfHost())) {
            if (alreadyForwarded) {
                return stale(s, key, md.partition(), "the assignment moved while the request was forwarded");
            }
            try {
                return owners.get(md.activeHost(), pathAndQuery, roleOf.apply(authorization));
            } catch (IOException e) {
                return stale(s, key, md.partition(), "the owner " + md.activeHost() + " is unreachable: " + e.getMessage());
            }
        }
        try {
            return new Local(activeStore(s, md.partition()).get(key), false);
        } catch (InvalidStateStoreException e) {
            forgetStore(md.partition());
            return stale(s, key, md.partition(), "the store is migrating: " + e.getMessage());
        }
    }

    /**
     * The queryable store of one partition, kept between requests: {@code KafkaStreams.store} validates the
     * whole query each time, which costs more than the read. Dropped when a read finds it invalid (it moved).
     */
    private ReadOnlyKeyValueStore<String, ReconcileState> activeStore(KafkaStreams s, int partition) {
        StoreHandles h = handles;
        if (h == null || h.streams() != s || partition >= h.byPartition().length()) {
            h = new StoreHandles(s, new AtomicReferenceArray<>(Math.max(partition + 1, config.getInt(ServerConfig.TOPIC_PARTITIONS))));
            handles = h;
        }
        ReadOnlyKeyValueStore<String, ReconcileState> store = h.byPartition().get(partition);
        if (store == null) {
            store = s.store(StoreQueryParameters.fromNameAndType(StatesyncTopology.STATE_STORE,
                QueryableStoreTypes.<String, ReconcileState>keyValueStore()).withPartition(partition));
            h.byPartition().set(partition, store);
        }
        return store;
    }

    private void forgetStore(int partition) {
        StoreHandles h = handles;
        if (h != null && partition < h.byPartition().length()) {
            h.byPartition().set(partition, null);
        }
    }

    private record StoreHandles(KafkaStreams streams, AtomicReferenceArray<ReadOnlyKeyValueStore<String, ReconcileState>> byPartition) {
    }

    /** Whether the streams run (or rebalance), so that the resource view follows what they commit. */
    public boolean streamsRunning() {
        return running(streams.get());
    }

    private static boolean running(KafkaStreams s) {
        return s != null && (s.state() == KafkaStreams.State.RUNNING || s.state() == KafkaStreams.State.REBALANCING);
    }

    private KafkaStreams requireStreams() {
        KafkaStreams s = streams.get();
        if (!running(s)) {
            throw ApiError.unavailable("the streams are not running (" + (s == null ? "not started" : s.state()) + ")",
                RETRY_AFTER_SECONDS);
        }
        return s;
    }

    /** Serves from a local standby or restoring copy when its lag is within max.stale.lag. */
    private Outcome stale(KafkaStreams s, String key, int partition, String why) {
        Map<Integer, LagInfo> lags = s.allLocalStorePartitionLags().get(StatesyncTopology.STATE_STORE);
        LagInfo lag = lags == null ? null : lags.get(partition);
        if (lag == null || lag.offsetLag() > config.getLong(ServerConfig.MAX_STALE_LAG)) {
            throw ApiError.unavailable(why + (lag == null ? "; no local copy" : "; the local copy lags by "
                + lag.offsetLag()) + ". Retry shortly.", RETRY_AFTER_SECONDS);
        }
        try {
            ReadOnlyKeyValueStore<String, ReconcileState> store = s.store(StoreQueryParameters
                .fromNameAndType(StatesyncTopology.STATE_STORE, QueryableStoreTypes.<String, ReconcileState>keyValueStore())
                .enableStaleStores().withPartition(partition));
            return new Local(store.get(key), true);
        } catch (InvalidStateStoreException e) {
            throw ApiError.unavailable(why + "; the local copy is not queryable. Retry shortly.", RETRY_AFTER_SECONDS);
        }
    }

    /** The partition the default partitioner gives a String key, as every statesync producer uses it. */
    private int partitionOf(String key) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return Utils.toPositive(Utils.murmur2(bytes)) % config.getInt(ServerConfig.TOPIC_PARTITIONS);
    }

    /** Closes the idle connections to other instances. */
    @Override
    public void close() {
        owners.close();
    }
}
