package io.statesync.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;

/**
 * The one configuration class of statesync. Every key has a doc, type, default and validator, and a bad
 * value fails fast at construction. Kafka client settings pass through by prefix: {@code kafka.} for every
 * client, then {@code streams.}, {@code producer.}, {@code consumer.} and {@code admin.} for one of them.
 */
public final class AppConfig extends AbstractConfig {

    public static final String ENV_PREFIX = "STATESYNC_";
    /**
     * Variables under the prefix that the launch scripts read for themselves ({@code bin/statesync}, {@code ./statesync}):
     * they are not configuration keys, and would otherwise show up as unknown keys in the logged configuration.
     */
    public static final Set<String> LAUNCHER_ENV = Set.of("STATESYNC_HOME", "STATESYNC_CDS", "STATESYNC_CDS_DIR",
        "STATESYNC_REGISTRY_JAR");

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    public static final String APPLICATION_ID = "application.id";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
    public static final String TOPIC_CREATE = "topic.create";
    public static final String PROCESSING_GUARANTEE = "processing.guarantee";
    public static final String NUM_STREAM_THREADS = "num.stream.threads";
    public static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
    public static final String STATE_DIR = "state.dir";
    public static final String NUM_STANDBY_REPLICAS = "num.standby.replicas";
    public static final String MAX_STALE_LAG = "max.stale.lag";
    public static final String GROUP_INSTANCE_ID = "group.instance.id";
    public static final String ROCKSDB_MEMORY_BYTES = "rocksdb.memory.bytes";
    public static final String HTTP_HOST = "http.host";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_MAX_BODY_BYTES = "http.max.body.bytes";
    public static final String APPLICATION_SERVER = "application.server";
    public static final String ADMISSION_TIMEOUT_MS = "admission.timeout.ms";
    public static final String ADMISSION_COMMIT_INTERVAL_MS = "admission.commit.interval.ms";
    public static final String ADMISSION_COMMIT_MAX_RATE = "admission.commit.max.rate";
    public static final String BULK_MAX_ITEMS = "bulk.max.items";
    public static final String EVENTS_MAX_PER_RESOURCE = "events.max.per.resource";
    public static final String EVENTS_MAX_AGE_MS = "events.max.age.ms";
    public static final String SPEC_MAX_BYTES = "spec.max.bytes";
    public static final String SPEC_MAX_DEPTH = "spec.max.depth";
    public static final String PATCH_MAX_OPERATIONS = "patch.max.operations";

    public static final String CEL_MAX_ESTIMATED_COST = "cel.max.estimated.cost";
    public static final String CEL_MAX_ESTIMATED_POLICY_COST = "cel.max.estimated.policy.cost";
    public static final String CEL_MAX_RULES = "cel.max.rules.per.policy";
    public static final String CEL_MAX_RULE_BYTES = "cel.max.rule.bytes";
    public static final String LIVENESS_TASK_FAILURES_MS = "liveness.task.failures.ms";
    public static final String RESYNC_INTERVAL_MS = "resync.punctuate.interval.ms";
    public static final String RESYNC_MAX_KEYS = "resync.max.keys.per.punctuation";
    public static final String RESYNC_MAX_WRITES = "resync.max.writes.per.punctuation";
    public static final String KINDS_SEED_FILE = "kinds.seed.file";
    public static final String HTTP_TLS_KEYSTORE_PATH = "http.tls.keystore.path";
    public static final String HTTP_TLS_KEYSTORE_PASSWORD = "http.tls.keystore.password";
    public static final String HTTP_TLS_KEYSTORE_TYPE = "http.tls.keystore.type";
    public static final String FORWARD_SECRET = "forward.secret";
    public static final String FORWARD_TLS_TRUSTSTORE_PATH = "forward.tls.truststore.path";
    public static final String FORWARD_TLS_TRUSTSTORE_PASSWORD = "forward.tls.truststore.password";
    public static final String RECONCILE_COALESCE_ENABLED = "reconcile.coalesce.enabled";
    public static final String RECONCILE_BATCH_INTERVAL_MS = "reconcile.batch.interval.ms";
    public static final String STATE_CACHE_MAX_ENTRIES = "state.cache.max.entries";
    public static final String CORRECTIONS_RATE_PER_KIND = "corrections.rate.per.kind";
    public static final String CORRECTIONS_BURST_PER_KIND = "corrections.burst.per.kind";
    public static final String AUTH_TOKENS = "auth.tokens";
    public static final String AUTH_TOKENS_FILE = "auth.tokens.file";
    public static final String WATCH_BOOKMARK_INTERVAL_MS = "watch.bookmark.interval.ms";
    public static final String WATCH_MAX_QUEUE = "watch.max.queue";
    public static final String WATCH_SEND_TIMEOUT_MS = "watch.send.timeout.ms";
    public static final String VIEW_SNAPSHOT_ENABLED = "view.snapshot.enabled";
    public static final String VIEW_SNAPSHOT_MAX_AGE_MS = "view.snapshot.max.age.ms";
    public static final String VIEW_SPILL_BYTES = "view.spill.bytes";
    public static final String VIEW_RING_CAPACITY = "view.ring.capacity";
    public static final String VIEW_SPILL_INTERVAL_MS = "view.spill.interval.ms";
    public static final String LOG_FORMAT = "log.format";
    public static final String PROBE_PORT = "probe.port";
    public static final String LOOP_RESTART_BACKOFF_MS = "loop.restart.backoff.ms";
    public static final String LOOP_RESTART_BACKOFF_MAX_MS = "loop.restart.backoff.max.ms";
    public static final String LOOP_LIVENESS_MS = "loop.liveness.ms";
    public static final String METRICS_MAX_KINDS = "metrics.max.kinds";

    public static final String WATCH_MAX_OPEN = "watch.max.open";
    public static final String WATCH_MAX_OPEN_PER_TOKEN = "watch.max.open.per.token";
    public static final String WATCH_THREADS = "watch.threads";
    public static final String LIST_MAX_BYTES = "list.max.bytes";
    public static final String VIEW_RING_BYTES = "view.ring.bytes";
    public static final String VIEW_JSON_CACHE_BYTES = "view.json.cache.bytes";
    public static final String EVENTS_HISTORY_BYTES = "events.history.bytes";

    public static final String KAFKA_PREFIX = "kafka.";
    public static final String STREAMS_PREFIX = "streams.";
    public static final String PRODUCER_PREFIX = "producer.";
    public static final String CONSUMER_PREFIX = "consumer.";
    public static final String ADMIN_PREFIX = "admin.";

    public static final String EXACTLY_ONCE_V2 = "exactly_once_v2";
    public static final String AT_LEAST_ONCE = "at_least_once";

    private static final ConfigDef.Validator NON_EMPTY_LIST = new ConfigDef.Validator() {
        @Override
        public void ensureValid(String name, Object value) {
            if (!(value instanceof java.util.List<?> l) || l.isEmpty() || l.stream().anyMatch(e -> e.toString().isBlank())) {
                throw new ConfigException(name, value, "must be a non-empty list of host:port");
            }
        }

        @Override
        public String toString() {
            return "non-empty list";
        }
    };

    private static final ConfigDef CONFIG = buildConfigDef();

    public AppConfig(Map<?, ?> props) {
        super(CONFIG, props, false);
        validateCrossFields();
    }

    public static ConfigDef configDef() {
        return CONFIG;
    }

    /** Loads a properties file (optional), then applies {@code STATESYNC_*} environment overrides, then explicit overrides. */
    public static AppConfig load(Path propertiesFile, Map<String, String> env, Map<String, ?> overrides) {
        Map<String, Object> props = new HashMap<>();
        if (propertiesFile != null) {
            props.putAll(readProperties(propertiesFile));
        }
        props.putAll(fromEnvironment(env));
        if (overrides != null) {
            props.putAll(overrides);
        }
        return new AppConfig(props);
    }

    /** {@code STATESYNC_HTTP_PORT=8080} becomes {@code http.port=8080}; {@code STATESYNC_KAFKA_SASL_MECHANISM} becomes {@code kafka.sasl.mechanism}. */
    public static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length() && !LAUNCHER_ENV.contains(name)) {
                out.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        return out;
    }

    private static Map<String, String> readProperties(Path file) {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new ConfigException("Cannot read configuration file " + file + ": " + e.getMessage());
        }
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    private void validateCrossFields() {
        if (getInt(RESYNC_MAX_WRITES) > getInt(RESYNC_MAX_KEYS)) {
            throw new ConfigException(RESYNC_MAX_WRITES, getInt(RESYNC_MAX_WRITES),
                "must not exceed " + RESYNC_MAX_KEYS + " (" + getInt(RESYNC_MAX_KEYS) + ")");
        }
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    /** Pass-through client settings for one client type: {@code kafka.*} first, then the type's own prefix wins. */
    public Map<String, Object> clientProps(String typePrefix) {
        Map<String, Object> out = new HashMap<>(originalsWithPrefix(KAFKA_PREFIX));
        out.putAll(originalsWithPrefix(typePrefix));
        return out;
    }

    /** What an admin client needs: the {@code admin.*} pass-through settings and the bootstrap servers. */
    public Map<String, Object> adminProps() {
        Map<String, Object> p = clientProps(ADMIN_PREFIX);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", getList(BOOTSTRAP_SERVERS)));
        return p;
    }

    /** The effective value of every defined key, secrets masked, for the startup log and {@code config docs}. */
    public Map<String, String> describe() {
        Map<String, String> out = new TreeMap<>();
        for (ConfigDef.ConfigKey key : CONFIG.configKeys().values()) {
            Object v = get(key.name);
            out.put(key.name, key.type == Type.PASSWORD ? (v == null ? "null" : "[hidden]") : String.valueOf(v));
        }
        originals().keySet().stream().filter(k -> !CONFIG.configKeys().containsKey(k)).forEach(k ->
            out.put(k, isSecretKey(k) ? "[hidden]" : String.valueOf(originals().get(k))));
        return out;
    }

    /** Keys whose values must never be logged, including passed-through client secrets (SASL JAAS, SSL passwords). */
    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.contains("password") || k.contains("secret") || k.contains("jaas") || k.contains("token")
            || k.contains("user.info") || k.endsWith(".key");
    }

    /** Markdown reference of every key, used by {@code statesync config docs} and docs/configuration.md. */
    public static String docsMarkdown() {
        StringBuilder sb = new StringBuilder("| key | type | default | valid values | importance | description |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : CONFIG.configKeys().values()) {
            sb.append("| `").append(key.name).append("` | ").append(key.type.name().toLowerCase(Locale.ROOT))
                .append(" | ").append(defaultText(key)).append(" | ")
                .append(key.validator == null ? "" : key.validator.toString().replace("|", "\\|"))
                .append(" | ").append(key.importance.name().toLowerCase(Locale.ROOT)).append(" | ")
                .append(key.documentation.replace("|", "\\|").replace("\n", " ")).append(" |\n");
        }
        return sb.toString();
    }

    private static String defaultText(ConfigDef.ConfigKey key) {
        if (!key.hasDefault()) {
            return "(required)";
        }
        Object d = key.defaultValue;
        return d == null || "".equals(d) ? "\"\"" : "`" + ConfigDef.convertToString(d, key.type) + "`";
    }

    private static ConfigDef buildConfigDef() {
        ConfigDef def = new ConfigDef();
        defineKafka(def);
        defineTopics(def);
        defineHttp(def);
        defineHttpTls(def);
        defineViewBudgets(def);
        defineReconcile(def);
        defineCoalescing(def);
        defineCorrectionRate(def);
        defineProbesAndLoops(def);
        return def;
    }

    private static void defineKafka(ConfigDef def) {
        def.define(BOOTSTRAP_SERVERS, Type.LIST, "127.0.0.1:9092", NON_EMPTY_LIST, Importance.HIGH,
                "Kafka bootstrap servers, host:port[,host:port].")
            .define(SCHEMA_REGISTRY_URL, Type.STRING, "http://127.0.0.1:8081/apis/ccompat/v7",
                new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Base URL of a Confluent-compatible schema registry; mock://<scope> gives an in-process one for tests.")
            .define(APPLICATION_ID, Type.STRING, "statesync", new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Kafka Streams application.id: the consumer group and the prefix of internal topics. Every instance of one deployment shares it.")
            .define(PROCESSING_GUARANTEE, Type.STRING, EXACTLY_ONCE_V2, ValidString.in(EXACTLY_ONCE_V2, AT_LEAST_ONCE),
                Importance.MEDIUM, "Kafka Streams processing guarantee.")
            .define(NUM_STREAM_THREADS, Type.INT, 2, Range.between(1, 64), Importance.MEDIUM,
                "Stream threads per instance.")
            .define(COMMIT_INTERVAL_MS, Type.LONG, 100L, Range.between(1, 600_000), Importance.MEDIUM,
                "Commit interval; with exactly_once_v2 it bounds the latency from input to visible output of writes that "
                    + "arrive straight on Kafka (awaited REST writes commit sooner, admission.commit.interval.ms). A "
                    + "shorter interval costs a transaction more per interval (docs/configuration.md, Write latency).")
            .define(STATE_DIR, Type.STRING, "./data/streams", new ConfigDef.NonEmptyString(), Importance.MEDIUM,
                "Directory of the local state stores (RocksDB). Keep it across restarts for a fast start.")
            .define(NUM_STANDBY_REPLICAS, Type.INT, 0, Range.between(0, 10), Importance.MEDIUM,
                "Standby replicas of each state store on other instances, for fast failover and standby reads.")
            .define(GROUP_INSTANCE_ID, Type.STRING, "", Importance.MEDIUM,
                "Static group membership: a name unique to this instance and stable across its restarts (e.g. the pod name of a StatefulSet)."
                    + " A restart within the consumer session timeout (45 s) then resumes the instance's tasks without a rebalance, and a clean"
                    + " stop keeps them assigned to it; empty: dynamic membership, a clean stop leaves the group. statesync up sets it.")
            .define(ROCKSDB_MEMORY_BYTES, Type.LONG, 256L * 1024 * 1024, Range.atLeast(0), Importance.MEDIUM,
                "Native memory of all RocksDB state stores of this instance together: one block cache (data, index and filter blocks)"
                    + " with the memtables charged to it, half of it at most. 0: Kafka Streams' defaults, a 50 MB cache and up to 48 MB of"
                    + " memtables per store and task. Ignored when streams.rocksdb.config.setter is set.")
            .define(MAX_STALE_LAG, Type.LONG, 10_000L, Range.atLeast(0), Importance.LOW,
                "A read may be served from a standby or restoring store only when its offset lag is at most this.")
            .define(LOG_FORMAT, Type.STRING, "text", ValidString.in("text", "json"), Importance.LOW,
                "Console log format: text or json (one JSON object per line).");
    }

    private static void defineTopics(ConfigDef def) {
        def.define(TOPIC_PREFIX, Type.STRING, "statesync.", new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Prefix of every topic: <prefix>desired, observed, corrections, resources, events, kinds, dlq.")
            .define(TOPIC_PARTITIONS, Type.INT, 6, Range.between(1, 10_000), Importance.HIGH,
                "Partition count of every input and output topic. They must be equal (co-partitioning); startup fails fast when an existing topic differs.")
            .define(TOPIC_REPLICATION_FACTOR, Type.SHORT, (short) -1, Range.between(-1, 32), Importance.MEDIUM,
                "Replication factor of created topics; -1 takes the broker's default.replication.factor.")
            .define(TOPIC_CREATE, Type.BOOLEAN, true, Importance.LOW,
                "Create missing topics at startup. When false, missing topics fail startup.");
    }

    private static void defineHttp(ConfigDef def) {
        def.define(HTTP_HOST, Type.STRING, "127.0.0.1", new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Address the REST server binds to. With no auth tokens configured only a loopback address is allowed.")
            .define(HTTP_PORT, Type.INT, 8080, Range.between(0, 65_535), Importance.HIGH,
                "REST port; 0 picks a free one.")
            .define(HTTP_MAX_BODY_BYTES, Type.INT, 1_048_576, Range.between(1_024, 64 * 1_048_576), Importance.LOW,
                "Largest accepted request body; larger ones get 413.")
            .define(APPLICATION_SERVER, Type.STRING, "", Importance.MEDIUM,
                "host:port other instances use to reach this one's REST API (Kafka Streams application.server). Empty: http.host:http.port.")
            .define(ADMISSION_TIMEOUT_MS, Type.LONG, 10_000L, Range.between(100, 600_000), Importance.MEDIUM,
                "How long a REST write waits for its admission event before answering 504. The REST producer's "
                    + "max.block.ms (a quarter of it), delivery.timeout.ms and request.timeout.ms (half of it) derive "
                    + "from it, so that a write Kafka had not acknowledged when it was answered 504 is never recorded "
                    + "later; producer.* or kafka.* overrides whose max.block.ms + delivery.timeout.ms reach it stop "
                    + "the start.")
            .define(ADMISSION_COMMIT_INTERVAL_MS, Type.LONG, 20L, Range.between(0, 600_000), Importance.MEDIUM,
                "While REST callers await writes, admission asks Kafka Streams to commit at most this often per stream "
                    + "thread instead of waiting out commit.interval.ms, so an awaited answer is not held back by the "
                    + "interval; one client writing in sequence may ask after a quarter of it. Writes that "
                    + "arrive straight on Kafka keep commit.interval.ms. 0 turns commits on request off. When on, Kafka "
                    + "Streams' poll.ms defaults to this value (at most 100). Every commit is an exactly-once transaction, "
                    + "so under a steady stream of awaited writes a shorter gap costs CPU per write, and a longer one delays "
                    + "a lone client's write that arrives within it (docs/configuration.md, Write latency).")
            .define(ADMISSION_COMMIT_MAX_RATE, Type.LONG, 2_500L, Range.atLeast(0), Importance.LOW,
                "Records per second that this instance's admission may process (over the last second) while it still "
                    + "commits on request (admission.commit.interval.ms); above it every commit.interval.ms carries many "
                    + "writes anyway, and commits on request would only multiply the transactions per write. 0: no limit "
                    + "(docs/configuration.md, Write latency).")
            .define(EVENTS_MAX_PER_RESOURCE, Type.INT, 100, Range.between(1, 10_000), Importance.LOW,
                "The most events the event history keeps per resource (GET .../events, statesync describe); repeats "
                    + "of one type, reason and message count as one.")
            .define(EVENTS_MAX_AGE_MS, Type.LONG, 3_600_000L, Range.between(1_000, 30L * 24 * 3_600_000), Importance.LOW,
                "How far back the event history reaches, read again from statesync.events at every start "
                    + "(Kubernetes keeps events for an hour by default).")
            .define(BULK_MAX_ITEMS, Type.INT, 1_000, Range.between(1, 100_000), Importance.LOW,
                "The most documents one bulk write request (POST /api/v1/bulk) may carry.")
            .define(AUTH_TOKENS, Type.PASSWORD, null, Importance.HIGH,
                "Bearer tokens as token:role[,token:role]; role is reader or writer. Empty: open, loopback only.")
            .define(AUTH_TOKENS_FILE, Type.STRING, "", Importance.HIGH,
                "A file with one token:role per line, read at startup; merged with auth.tokens.")
            .define(WATCH_BOOKMARK_INTERVAL_MS, Type.LONG, 30_000L, Range.between(100, 3_600_000), Importance.LOW,
                "How often an idle watch receives a BOOKMARK with its current position.")
            .define(WATCH_MAX_QUEUE, Type.INT, 10_000, Range.between(10, 10_000_000), Importance.LOW,
                "Events buffered for one watch client; a client that falls further behind is disconnected.")
            .define(WATCH_SEND_TIMEOUT_MS, Type.LONG, 10_000L, Range.between(100, 600_000), Importance.LOW,
                "A watch client whose socket accepts no data for this long is disconnected, so it never holds a server thread.")
            .define(VIEW_SNAPSHOT_ENABLED, Type.BOOLEAN, true, Importance.LOW,
                "Write the REST resource view to <state.dir>/<application.id>/ at a clean stop, and start from it and the"
                    + " topic's tail instead of reading statesync.resources from the beginning (when it is still valid).")
            .define(VIEW_SNAPSHOT_MAX_AGE_MS, Type.LONG, 3_600_000L, Range.between(0, 7L * 24 * 3_600_000), Importance.LOW,
                "An older view snapshot is not used. The limit is also capped at statesync.resources' delete.retention.ms,"
                    + " so that no deletion is missed because its tombstone was compacted away.")
            .define(VIEW_SPILL_BYTES, Type.LONG, 64L * 1024 * 1024, Range.between(0, Long.MAX_VALUE), Importance.LOW,
                "Once the REST view holds this many bytes of resources on the heap, and at least a quarter of what its"
                    + " snapshot file holds, it writes its snapshot while running and maps the values back from the file,"
                    + " so that the heap keeps keys and summaries only. 0 writes the snapshot at a clean stop only. Needs"
                    + " view.snapshot.enabled.")
            .define(VIEW_SPILL_INTERVAL_MS, Type.LONG, 10_000L, Range.between(0, 86_400_000), Importance.LOW,
                "The least time between two such writes of the REST view's snapshot (each rewrites the whole view).")
            .define(VIEW_RING_CAPACITY, Type.INT, 200_000, Range.between(10, 50_000_000), Importance.LOW,
                "Recent changes the REST view keeps for watches; a watch from a position older than these is answered"
                    + " 410 Gone (Expired in the Kubernetes API) and the client lists again.");
    }

    /** The bounds on what clients of the resource view may hold open or make the server hold. */
    private static void defineViewBudgets(ConfigDef def) {
        def.define(WATCH_MAX_OPEN, Type.INT, 2_000, Range.between(1, 1_000_000), Importance.LOW,
                "The most watches open at once on this instance (both APIs together); one more is answered 429 with"
                    + " Retry-After. A waiting watch holds no server thread, only its connection and a cursor.")
            .define(WATCH_MAX_OPEN_PER_TOKEN, Type.INT, 500, Range.between(1, 1_000_000), Importance.LOW,
                "The most watches one bearer token may hold open at once on this instance (per client address when"
                    + " auth is off); one more is answered 429 with Retry-After.")
            .define(WATCH_THREADS, Type.INT, 4, Range.between(1, 256), Importance.LOW,
                "Threads that write watch events. Watches that wait hold none; a client that stops reading holds"
                    + " one for at most watch.send.timeout.ms.")
            .define(LIST_MAX_BYTES, Type.LONG, 16L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes of resources (as stored on statesync.resources) one list page holds; a longer page is"
                    + " cut short with a continue token. A Kubernetes list without limit that would pass it is"
                    + " refused with 400 and told to page (limit and continue).")
            .define(VIEW_RING_BYTES, Type.LONG, 256L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes the REST view's change ring holds for watches (each change's resource, the one a"
                    + " modification replaced, and the change itself), beside view.ring.capacity;"
                    + " the oldest changes leave first, and a watch from before them is answered 410.")
            .define(VIEW_JSON_CACHE_BYTES, Type.LONG, 32L * 1024 * 1024, Range.between(0, 1L << 40), Importance.LOW,
                "The most bytes of rendered JSON the REST server caches for point reads and watches. 0: no cache.")
            .define(EVENTS_HISTORY_BYTES, Type.LONG, 64L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes of heap the event history holds across all resources, its objects included; past it"
                    + " the longest histories lose their oldest entries first, then the resources whose latest event is"
                    + " the oldest lose theirs.");
    }

    private static void defineHttpTls(ConfigDef def) {
        def.define(HTTP_TLS_KEYSTORE_PATH, Type.STRING, "", Importance.MEDIUM,
                "Key store (server certificate and private key) for HTTPS on the REST port. Empty: plain HTTP.")
            .define(HTTP_TLS_KEYSTORE_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM,
                "Password of http.tls.keystore.path and of the private key in it.")
            .define(HTTP_TLS_KEYSTORE_TYPE, Type.STRING, "PKCS12", ValidString.in("PKCS12", "JKS"), Importance.LOW,
                "Type of http.tls.keystore.path.")
            .define(FORWARD_SECRET, Type.PASSWORD, null, Importance.MEDIUM,
                "The secret the instances of one application share to sign the reads they forward to a key's owner;"
                    + " a forward carries this signature instead of the caller's token. Unset: derived from the"
                    + " configured auth tokens, so instances with the same tokens agree; set it when instances may"
                    + " hold different tokens, as while tokens are rotated.")
            .define(FORWARD_TLS_TRUSTSTORE_PATH, Type.STRING, "", Importance.LOW,
                "Trust store (PKCS12) with the certificates an instance accepts from another when it forwards a read"
                    + " over HTTPS (when http.tls.keystore.path is set). Empty: the certificates in"
                    + " http.tls.keystore.path, which suits instances that share one certificate or its issuer.")
            .define(FORWARD_TLS_TRUSTSTORE_PASSWORD, Type.PASSWORD, null, Importance.LOW,
                "Password of forward.tls.truststore.path.");
    }

    private static void defineReconcile(ConfigDef def) {
        def.define(SPEC_MAX_BYTES, Type.INT, 1_048_576, Range.between(1_024, 16 * 1_048_576), Importance.MEDIUM,
                "Largest accepted serialized desired or observed record; larger ones go to the DLQ.")
            .define(SPEC_MAX_DEPTH, Type.INT, 64, Range.between(2, 10_000), Importance.LOW,
                "Deepest accepted nesting of a spec or state tree; deeper ones go to the DLQ.")
            .define(PATCH_MAX_OPERATIONS, Type.INT, 10_000, Range.between(1, 1_000_000), Importance.LOW,
                "The most operations one JSON patch may carry (Kubernetes' limit); more are refused with 422 PatchTooLarge. "
                    + "Whatever the count, a patch's result is held to spec.max.bytes and spec.max.depth while it applies.")

            .define(CEL_MAX_ESTIMATED_COST, Type.LONG, 10_000_000L, Range.atLeast(1), Importance.LOW,
                "Largest estimated worst-case cost of one health or validation rule that PUT /api/v1/kinds accepts "
                    + "(Kubernetes' per-expression limit); every string or list a rule reads is taken to be spec.max.bytes long.")
            .define(CEL_MAX_ESTIMATED_POLICY_COST, Type.LONG, 100_000_000L, Range.atLeast(1), Importance.LOW,
                "Largest sum of the estimated costs of one kind policy's rules that PUT /api/v1/kinds accepts "
                    + "(Kubernetes' per-CRD limit).")
            .define(CEL_MAX_RULES, Type.INT, 64, Range.between(1, 10_000), Importance.LOW,
                "Most health and validation rules, together, that PUT /api/v1/kinds accepts in one kind policy.")
            .define(CEL_MAX_RULE_BYTES, Type.INT, 5_000, Range.between(16, 100_000), Importance.LOW,
                "Longest rule expression, in UTF-8 bytes, that PUT /api/v1/kinds accepts.")
            .define(LIVENESS_TASK_FAILURES_MS, Type.LONG, 900_000L, Range.between(0, 86_400_000), Importance.LOW,
                "How long the instance's stream tasks may keep failing (repeatedly, with no quiet five minutes between "
                    + "failures) before /healthz answers 503 so that the orchestrator restarts the process; /readyz "
                    + "reports them at once. 0 turns the liveness check off.")
            .define(RESYNC_INTERVAL_MS, Type.LONG, 1_000L, Range.between(10, 3_600_000), Importance.LOW,
                "Wall-clock period of the timer that expires deadlines, retries, resyncs and marks stale observations.")
            .define(RESYNC_MAX_KEYS, Type.INT, 2_000, Range.between(1, 1_000_000), Importance.LOW,
                "Keys the timer may visit per punctuation and task, so that a million keys never stall a commit.")
            .define(RESYNC_MAX_WRITES, Type.INT, 500, Range.between(1, 1_000_000), Importance.LOW,
                "Store writes the timer may make per punctuation and task.")
            .define(KINDS_SEED_FILE, Type.STRING, "", Importance.LOW,
                "Optional YAML file of kind policies written to the kinds topic at startup for kinds it does not hold yet.");
    }

    private static void defineCoalescing(ConfigDef def) {
        def.define(RECONCILE_COALESCE_ENABLED, Type.BOOLEAN, true, Importance.LOW,
                "Admit each desired write and store each observation at once, but reconcile a key once per batch "
                    + "(every reconcile.batch.interval.ms) however many events it had, like a controller's work queue. "
                    + "false reconciles after every event.")
            .define(RECONCILE_BATCH_INTERVAL_MS, Type.LONG, 20L, Range.between(1, 10_000), Importance.LOW,
                "Wall-clock period of the coalesced reconcile batch: the most a reconcile waits after its event.")
            .define(STATE_CACHE_MAX_ENTRIES, Type.INT, 5_000, Range.between(1, 10_000_000), Importance.LOW,
                "Decoded per-key states kept per task between events (written back at each commit).");
    }

    private static void defineCorrectionRate(ConfigDef def) {
        def.define(CORRECTIONS_RATE_PER_KIND, Type.DOUBLE, 0.0, Range.between(0.0, 1_000_000.0), Importance.LOW,
                "Corrections per second each stream task may issue for one kind, refilled by wall-clock time, like a "
                    + "workqueue's overall token bucket: a correction beyond it waits on the key's timer for its token "
                    + "(Synced reason RateLimited) and counts in statesync_corrections_delayed_total. "
                    + "0 means unlimited, so that an instance that does not ask for a limit behaves as without one.")
            .define(CORRECTIONS_BURST_PER_KIND, Type.INT, 100, Range.between(1, 1_000_000), Importance.LOW,
                "Corrections a task may issue for one kind at once before corrections.rate.per.kind paces them: "
                    + "the size of the kind's token bucket. Ignored while the rate is 0.");
    }

    private static void defineProbesAndLoops(ConfigDef def) {
        def.define(PROBE_PORT, Type.INT, 0, Range.between(-1, 65_535), Importance.MEDIUM,
                "Port of the probe listener: /livez, /healthz and /readyz on threads of their own, plain HTTP on http.host,"
                    + " so that no client load on the REST port can starve them (point Kubernetes probes here). 0 picks a"
                    + " free one (logged at start); -1 serves the probes on the REST port only. The REST port answers them too.")
            .define(LOOP_RESTART_BACKOFF_MS, Type.LONG, 100L, Range.between(1, 600_000), Importance.LOW,
                "First wait before a background loop (admission replies, the resource view's reader, the event history)"
                    + " that failed is started again; each further failure in a row doubles it, up to loop.restart.backoff.max.ms.")
            .define(LOOP_RESTART_BACKOFF_MAX_MS, Type.LONG, 30_000L, Range.between(1, 3_600_000), Importance.LOW,
                "Longest wait between restarts of a failing background loop.")
            .define(LOOP_LIVENESS_MS, Type.LONG, 300_000L, Range.between(1_000, 86_400_000), Importance.LOW,
                "A background loop that keeps failing for this long, or that stopped for good, fails /livez and /healthz,"
                    + " so that the orchestrator restarts the instance; before that it shows on /readyz only.")
            .define(METRICS_MAX_KINDS, Type.INT, 100, Range.between(1, 100_000), Importance.LOW,
                "Distinct kind tag values the per-kind meters take; meters of further kinds are counted under kind=\"other\","
                    + " so that clients minting kinds cannot grow /metrics without bound.");
    }
}
