package io.statesync.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
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
 * The configuration of statesync: the engine's keys, defined here, and those of every {@link ConfigSection} on the
 * class path (the server's, {@code io.statesync.server.ServerConfig}), in one set, so that an application has one
 * properties file and one reference. Every key has a doc, type, default and validator, is defined in exactly one
 * section, and a bad value fails fast at construction. Kafka client settings pass through by prefix: {@code kafka.}
 * for every client, then {@code streams.}, {@code producer.}, {@code consumer.} and {@code admin.} for one of them.
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
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
    public static final String PROCESSING_GUARANTEE = "processing.guarantee";
    public static final String NUM_STREAM_THREADS = "num.stream.threads";
    public static final String COMMIT_INTERVAL_MS = "commit.interval.ms";
    public static final String STATE_DIR = "state.dir";
    public static final String NUM_STANDBY_REPLICAS = "num.standby.replicas";
    public static final String ADMISSION_COMMIT_INTERVAL_MS = "admission.commit.interval.ms";
    public static final String ADMISSION_COMMIT_MAX_RATE = "admission.commit.max.rate";
    public static final String SPEC_MAX_BYTES = "spec.max.bytes";
    public static final String DEFINITIONS_SCHEMA_MAX_DEPTH = "definitions.schema.max.depth";
    public static final String DEFINITIONS_SCHEMA_MAX_NODES = "definitions.schema.max.nodes";
    public static final String DEFINITIONS_MAX_RULE_EVALUATIONS = "definitions.max.rule.evaluations";
    public static final String DEFINITIONS_MAX_PATTERN_STEPS = "definitions.max.pattern.steps";
    public static final String SPEC_MAX_DEPTH = "spec.max.depth";
    public static final String PATCH_MAX_OPERATIONS = "patch.max.operations";

    public static final String QUARANTINE_MAX_ATTEMPTS = "quarantine.max.attempts";
    public static final String RESYNC_INTERVAL_MS = "resync.punctuate.interval.ms";
    public static final String RESYNC_MAX_KEYS = "resync.max.keys.per.punctuation";
    public static final String RESYNC_MAX_WRITES = "resync.max.writes.per.punctuation";
    public static final String RECONCILE_COALESCE_ENABLED = "reconcile.coalesce.enabled";
    public static final String RECONCILE_BATCH_INTERVAL_MS = "reconcile.batch.interval.ms";
    public static final String STATE_CACHE_MAX_ENTRIES = "state.cache.max.entries";
    public static final String STATE_CACHE_MAX_BYTES = "state.cache.max.bytes";
    public static final String CORRECTIONS_RATE_PER_KIND = "corrections.rate.per.kind";
    public static final String CORRECTIONS_BURST_PER_KIND = "corrections.burst.per.kind";
    public static final String LOOP_RESTART_BACKOFF_MS = "loop.restart.backoff.ms";
    public static final String LOOP_RESTART_BACKOFF_MAX_MS = "loop.restart.backoff.max.ms";
    public static final String LOOP_LIVENESS_MS = "loop.liveness.ms";

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

    private static final ConfigDef ENGINE = buildConfigDef();
    private static final List<ConfigSection> SECTIONS = List.copyOf(ServiceLoader.load(ConfigSection.class,
        AppConfig.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList());
    private static final ConfigDef CONFIG = compose(ENGINE, SECTIONS);

    public AppConfig(Map<?, ?> props) {
        super(CONFIG, props, false);
        validateCrossFields();
    }

    /** Every key: the engine's and those of each section on the class path. */
    public static ConfigDef configDef() {
        return CONFIG;
    }

    /** The keys the engine itself reads. */
    public static ConfigDef engineConfigDef() {
        return ENGINE;
    }

    /** The sections of other modules found on the class path ({@code META-INF/services/io.statesync.config.ConfigSection}). */
    public static List<ConfigSection> sections() {
        return SECTIONS;
    }

    /** One definition of each key; {@link ConfigDef#define(ConfigDef.ConfigKey)} refuses a key defined twice. */
    private static ConfigDef compose(ConfigDef engine, List<ConfigSection> sections) {
        ConfigDef all = new ConfigDef(engine);
        sections.forEach(section -> section.configDef().configKeys().values().forEach(all::define));
        return all;
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

    /** Markdown reference of every key, a table per section, used by {@code statesync config docs} and docs/configuration.md. */
    public static String docsMarkdown() {
        StringBuilder sb = new StringBuilder("## Engine\n\n").append(keysMarkdown(ENGINE));
        SECTIONS.forEach(section -> sb.append("\n## ").append(section.title()).append("\n\n")
            .append(keysMarkdown(section.configDef())));
        return sb.toString();
    }

    private static String keysMarkdown(ConfigDef def) {
        StringBuilder sb = new StringBuilder("| key | type | default | valid values | importance | description |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
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
        defineAdmissionCommits(def);
        defineReconcile(def);
        defineCoalescing(def);
        defineCorrectionRate(def);
        defineLoops(def);
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
                "Standby replicas of each state store on other instances, for fast failover and standby reads.");
    }

    private static void defineTopics(ConfigDef def) {
        def.define(TOPIC_PREFIX, Type.STRING, "statesync.", new ConfigDef.NonEmptyString(), Importance.HIGH,
                "Prefix of every topic: <prefix>desired, observed, corrections, resources, events, kinds, dlq.")
            .define(TOPIC_REPLICATION_FACTOR, Type.SHORT, (short) -1, Range.between(-1, 32), Importance.MEDIUM,
                "Replication factor of created topics; -1 takes the broker's default.replication.factor.");
    }

    private static void defineAdmissionCommits(ConfigDef def) {
        def.define(ADMISSION_COMMIT_INTERVAL_MS, Type.LONG, 20L, Range.between(0, 600_000), Importance.MEDIUM,
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
                    + "(docs/configuration.md, Write latency).");
    }

    private static void defineDefinitions(ConfigDef def) {
        def.define(DEFINITIONS_SCHEMA_MAX_DEPTH, Type.INT, 64, Range.between(2, 1_000), Importance.LOW,
                "Deepest nesting of a CustomResourceDefinition version's openAPIV3Schema; a deeper one refuses the "
                    + "definition with 422 Invalid. Its bytes are held to spec.max.bytes like any object's.")
            .define(DEFINITIONS_SCHEMA_MAX_NODES, Type.INT, 10_000, Range.between(1, 1_000_000), Importance.LOW,
                "Most schema nodes in a CustomResourceDefinition version's openAPIV3Schema; more refuse the definition "
                    + "with 422 Invalid.")
            .define(DEFINITIONS_MAX_RULE_EVALUATIONS, Type.INT, 1_000, Range.between(1, 1_000_000), Importance.LOW,
                "Most x-kubernetes-validations rule evaluations one write of a defined kind may spend (a rule on list "
                    + "items runs once per item); past them the write is refused with 422 Invalid, as Kubernetes refuses "
                    + "a write that runs out of its cost budget.")
            .define(DEFINITIONS_MAX_PATTERN_STEPS, Type.LONG, 2_000_000L, Range.between(1_000, 1_000_000_000L),
                Importance.LOW, "Most character reads a schema pattern may spend on one value; past them the value "
                    + "fails the pattern. Java's regular expressions backtrack, where Kubernetes' run in linear time.");
    }

    private static void defineReconcile(ConfigDef def) {
        defineDefinitions(def);
        def.define(SPEC_MAX_BYTES, Type.INT, 1_048_576, Range.between(1_024, 16 * 1_048_576), Importance.MEDIUM,
                "Largest accepted serialized desired or observed record; larger ones go to the DLQ. A status written to "
                    + "the status subresource is held to it too (413 StatusTooLarge).")
            .define(SPEC_MAX_DEPTH, Type.INT, 64, Range.between(2, 10_000), Importance.LOW,
                "Deepest accepted nesting of a spec or state tree; deeper ones go to the DLQ. A status written to the "
                    + "status subresource is held to it too (422).")
            .define(PATCH_MAX_OPERATIONS, Type.INT, 10_000, Range.between(1, 1_000_000), Importance.LOW,
                "The most operations one JSON patch may carry (Kubernetes' limit); more are refused with 422 PatchTooLarge. "
                    + "Whatever the count, a patch's result is held to spec.max.bytes and spec.max.depth while it applies.")
            .define(QUARANTINE_MAX_ATTEMPTS, Type.INT, 3, Range.between(1, 1_000), Importance.LOW,
                "How many times one input record may fail its stream task (under exactly-once, an output of it that the "
                    + "broker refuses, so that the task's transaction cannot commit) before the record is quarantined: "
                    + "sent to the DLQ with the reason Quarantined and the last failure, counted in "
                    + "statesync_quarantined_total, and the task goes on past it.")
            .define(RESYNC_INTERVAL_MS, Type.LONG, 1_000L, Range.between(10, 3_600_000), Importance.LOW,
                "Wall-clock period of the timer that expires deadlines, retries, resyncs and marks stale observations.")
            .define(RESYNC_MAX_KEYS, Type.INT, 2_000, Range.between(1, 1_000_000), Importance.LOW,
                "Keys the timer may visit per punctuation and task, so that a million keys never stall a commit.")
            .define(RESYNC_MAX_WRITES, Type.INT, 500, Range.between(1, 1_000_000), Importance.LOW,
                "Store writes the timer may make per punctuation and task.");
    }

    private static void defineCoalescing(ConfigDef def) {
        def.define(RECONCILE_COALESCE_ENABLED, Type.BOOLEAN, true, Importance.LOW,
                "Admit each desired write and store each observation at once, but reconcile a key once per batch "
                    + "(every reconcile.batch.interval.ms) however many events it had, like a controller's work queue. "
                    + "false reconciles after every event.")
            .define(RECONCILE_BATCH_INTERVAL_MS, Type.LONG, 20L, Range.between(1, 10_000), Importance.LOW,
                "Wall-clock period of the coalesced reconcile batch: the most a reconcile waits after its event.")
            .define(STATE_CACHE_MAX_ENTRIES, Type.INT, 5_000, Range.between(1, 10_000_000), Importance.LOW,
                "Decoded per-key states kept per task between events (written back at each commit).")
            .define(STATE_CACHE_MAX_BYTES, Type.LONG, 2L * 1024 * 1024, Range.between(0, 1L << 40), Importance.LOW,
                "The most bytes of decoded per-key states kept per task, counted as their encoded length in the state"
                    + " store (a decoded state takes a few times that on the heap); past it, or past"
                    + " state.cache.max.entries, the least recently used leave first, written back when changed. A"
                    + " state written since the last commit counts from the commit that first encodes it. 0 keeps"
                    + " only the states changed since the last commit.");
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

    private static void defineLoops(ConfigDef def) {
        def.define(LOOP_RESTART_BACKOFF_MS, Type.LONG, 100L, Range.between(1, 600_000), Importance.LOW,
                "First wait before a background loop (admission replies, the resource view's reader, the event history)"
                    + " that failed is started again; each further failure in a row doubles it, up to loop.restart.backoff.max.ms.")
            .define(LOOP_RESTART_BACKOFF_MAX_MS, Type.LONG, 30_000L, Range.between(1, 3_600_000), Importance.LOW,
                "Longest wait between restarts of a failing background loop.")
            .define(LOOP_LIVENESS_MS, Type.LONG, 300_000L, Range.between(1_000, 86_400_000), Importance.LOW,
                "A background loop that keeps failing for this long, or that stopped for good, fails /livez and /healthz,"
                    + " so that the orchestrator restarts the instance; before that it shows on /readyz only.");
    }
}
