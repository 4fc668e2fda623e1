package io.statesync.server;

import io.statesync.config.AppConfig;
import io.statesync.config.ConfigSection;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;

/**
 * The keys only the server reads: the REST and probe ports, TLS and tokens, the resource view, watches and events, the
 * limits on kind policies, and what the application sets up around the engine (topic creation, group membership,
 * RocksDB's memory, logs). The engine's own keys are in {@link AppConfig}, which composes this section in through
 * {@code META-INF/services}: the server's code reads these keys from the same {@link AppConfig} as the engine's.
 */
public final class ServerConfig implements ConfigSection {

    public static final String TOPIC_PARTITIONS = "topic.partitions";
    public static final String TOPIC_CREATE = "topic.create";
    public static final String GROUP_INSTANCE_ID = "group.instance.id";
    public static final String ROCKSDB_MEMORY_BYTES = "rocksdb.memory.bytes";
    public static final String MAX_STALE_LAG = "max.stale.lag";
    public static final String LOG_FORMAT = "log.format";
    public static final String LIVENESS_TASK_FAILURES_MS = "liveness.task.failures.ms";
    public static final String KINDS_SEED_FILE = "kinds.seed.file";
    public static final String HTTP_HOST = "http.host";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_MAX_BODY_BYTES = "http.max.body.bytes";
    public static final String APPLICATION_SERVER = "application.server";
    public static final String ADMISSION_TIMEOUT_MS = "admission.timeout.ms";
    public static final String BULK_MAX_ITEMS = "bulk.max.items";
    public static final String AUTH_TOKENS = "auth.tokens";
    public static final String AUTH_TOKENS_FILE = "auth.tokens.file";
    public static final String PROBE_PORT = "probe.port";
    public static final String METRICS_MAX_KINDS = "metrics.max.kinds";
    public static final String HTTP_TLS_KEYSTORE_PATH = "http.tls.keystore.path";
    public static final String HTTP_TLS_KEYSTORE_PASSWORD = "http.tls.keystore.password";
    public static final String HTTP_TLS_KEYSTORE_TYPE = "http.tls.keystore.type";
    public static final String FORWARD_SECRET = "forward.secret";
    public static final String FORWARD_TLS_TRUSTSTORE_PATH = "forward.tls.truststore.path";
    public static final String FORWARD_TLS_TRUSTSTORE_PASSWORD = "forward.tls.truststore.password";
    public static final String CEL_MAX_ESTIMATED_COST = "cel.max.estimated.cost";
    public static final String CEL_MAX_ESTIMATED_POLICY_COST = "cel.max.estimated.policy.cost";
    public static final String CEL_MAX_RULES = "cel.max.rules.per.policy";
    public static final String CEL_MAX_RULE_BYTES = "cel.max.rule.bytes";
    public static final String EVENTS_MAX_PER_RESOURCE = "events.max.per.resource";
    public static final String EVENTS_MAX_AGE_MS = "events.max.age.ms";
    public static final String EVENTS_HISTORY_BYTES = "events.history.bytes";
    public static final String WATCH_BOOKMARK_INTERVAL_MS = "watch.bookmark.interval.ms";
    public static final String WATCH_MAX_QUEUE = "watch.max.queue";
    public static final String WATCH_SEND_TIMEOUT_MS = "watch.send.timeout.ms";
    public static final String WATCH_MAX_OPEN = "watch.max.open";
    public static final String WRITE_WAIT_MAX_TIMEOUT_SECONDS = "write.wait.max.timeout.seconds";
    public static final String WRITE_WAIT_MAX_WAITING = "write.wait.max.waiting";
    public static final String WATCH_MAX_OPEN_PER_TOKEN = "watch.max.open.per.token";
    public static final String WATCH_THREADS = "watch.threads";
    public static final String WATCH_MIN_REQUEST_TIMEOUT_MS = "watch.min.request.timeout.ms";
    public static final String VIEW_SNAPSHOT_ENABLED = "view.snapshot.enabled";
    public static final String VIEW_SNAPSHOT_MAX_AGE_MS = "view.snapshot.max.age.ms";
    public static final String VIEW_SPILL_BYTES = "view.spill.bytes";
    public static final String VIEW_SPILL_INTERVAL_MS = "view.spill.interval.ms";
    public static final String VIEW_RING_CAPACITY = "view.ring.capacity";
    public static final String VIEW_RING_BYTES = "view.ring.bytes";
    public static final String VIEW_JSON_CACHE_BYTES = "view.json.cache.bytes";
    public static final String LIST_MAX_BYTES = "list.max.bytes";
    public static final String NAMESPACE_LIFECYCLE = "namespace.lifecycle";
    public static final String NAMESPACE_DELETION_BATCH_MAX_ITEMS = "namespace.deletion.batch.max.items";
    public static final String NAMESPACE_DELETION_BATCH_MAX_BYTES = "namespace.deletion.batch.max.bytes";
    public static final String NAMESPACE_DELETION_INTERVAL_MS = "namespace.deletion.interval.ms";

    private static final ConfigDef CONFIG = buildConfigDef();

    @Override
    public String title() {
        return "Server";
    }

    @Override
    public ConfigDef configDef() {
        return CONFIG;
    }

    private static ConfigDef buildConfigDef() {
        ConfigDef def = new ConfigDef();
        defineInstance(def);
        defineHttp(def);
        defineHttpTls(def);
        defineKindPolicyLimits(def);
        defineEventsAndWatches(def);
        defineView(def);
        defineNamespaces(def);
        return def;
    }

    /** What the application sets up around the engine: its topics, its group membership, RocksDB's memory, logs. */
    private static void defineInstance(ConfigDef def) {
        def.define(TOPIC_PARTITIONS, Type.INT, 6, Range.between(1, 10_000), Importance.HIGH,
                "Partition count of every input and output topic. They must be equal (co-partitioning); startup fails fast when an existing topic differs.")
            .define(TOPIC_CREATE, Type.BOOLEAN, true, Importance.LOW,
                "Create missing topics at startup. When false, missing topics fail startup.")
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
                "Console log format: text or json (one JSON object per line).")
            .define(LIVENESS_TASK_FAILURES_MS, Type.LONG, 900_000L, Range.between(0, 86_400_000), Importance.LOW,
                "How long the instance's stream tasks may keep failing (repeatedly, with no quiet five minutes between "
                    + "failures) before /healthz answers 503 so that the orchestrator restarts the process; /readyz "
                    + "reports them at once. 0 turns the liveness check off.")
            .define(KINDS_SEED_FILE, Type.STRING, "", Importance.LOW,
                "Optional YAML file of kind policies written to the kinds topic at startup for kinds it does not hold yet.");
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
            .define(BULK_MAX_ITEMS, Type.INT, 1_000, Range.between(1, 100_000), Importance.LOW,
                "The most documents one bulk write request (POST /api/v1/bulk) may carry.")
            .define(AUTH_TOKENS, Type.PASSWORD, null, Importance.HIGH,
                "Bearer tokens as token:role[,token:role]; role is reader or writer. Empty: open, loopback only.")
            .define(AUTH_TOKENS_FILE, Type.STRING, "", Importance.HIGH,
                "A file with one token:role per line, read at startup; merged with auth.tokens.")
            .define(PROBE_PORT, Type.INT, 0, Range.between(-1, 65_535), Importance.MEDIUM,
                "Port of the probe listener: /livez, /healthz and /readyz on threads of their own, plain HTTP on http.host,"
                    + " so that no client load on the REST port can starve them (point Kubernetes probes here). 0 picks a"
                    + " free one (logged at start); -1 serves the probes on the REST port only. The REST port answers them too.")
            .define(METRICS_MAX_KINDS, Type.INT, 100, Range.between(1, 100_000), Importance.LOW,
                "Distinct kind tag values the per-kind meters take; meters of further kinds are counted under kind=\"other\","
                    + " so that clients minting kinds cannot grow /metrics without bound.");
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

    /** What PUT /api/v1/kinds accepts of a kind policy's rules. */
    private static void defineKindPolicyLimits(ConfigDef def) {
        def.define(CEL_MAX_ESTIMATED_COST, Type.LONG, 10_000_000L, Range.atLeast(1), Importance.LOW,
                "Largest estimated worst-case cost of one health or validation rule that PUT /api/v1/kinds accepts "
                    + "(Kubernetes' per-expression limit); every string or list a rule reads is taken to be spec.max.bytes long.")
            .define(CEL_MAX_ESTIMATED_POLICY_COST, Type.LONG, 100_000_000L, Range.atLeast(1), Importance.LOW,
                "Largest sum of the estimated costs of one kind policy's rules that PUT /api/v1/kinds accepts "
                    + "(Kubernetes' per-CRD limit).")
            .define(CEL_MAX_RULES, Type.INT, 64, Range.between(1, 10_000), Importance.LOW,
                "Most health and validation rules, together, that PUT /api/v1/kinds accepts in one kind policy.")
            .define(CEL_MAX_RULE_BYTES, Type.INT, 5_000, Range.between(16, 100_000), Importance.LOW,
                "Longest rule expression, in UTF-8 bytes, that PUT /api/v1/kinds accepts.");
    }

    private static void defineEventsAndWatches(ConfigDef def) {
        def.define(EVENTS_MAX_PER_RESOURCE, Type.INT, 100, Range.between(1, 10_000), Importance.LOW,
                "The most events the event history keeps per resource (GET .../events, statesync describe); repeats "
                    + "of one type, reason and message count as one.")
            .define(EVENTS_MAX_AGE_MS, Type.LONG, 3_600_000L, Range.between(1_000, 30L * 24 * 3_600_000), Importance.LOW,
                "How far back the event history reaches, read again from statesync.events at every start "
                    + "(Kubernetes keeps events for an hour by default).")
            .define(EVENTS_HISTORY_BYTES, Type.LONG, 32L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes of heap the event history holds across all resources, its objects included; past it"
                    + " the longest histories lose their oldest entries first, then the resources whose latest event is"
                    + " the oldest lose theirs.")
            .define(WATCH_BOOKMARK_INTERVAL_MS, Type.LONG, 30_000L, Range.between(100, 3_600_000), Importance.LOW,
                "How often an idle watch receives a BOOKMARK with its current position.")
            .define(WATCH_MAX_QUEUE, Type.INT, 10_000, Range.between(10, 10_000_000), Importance.LOW,
                "Events buffered for one watch client; a client that falls further behind is disconnected.")
            .define(WATCH_SEND_TIMEOUT_MS, Type.LONG, 10_000L, Range.between(100, 600_000), Importance.LOW,
                "A watch client whose socket accepts no data for this long is disconnected, so it never holds a server thread.")
            .define(WRITE_WAIT_MAX_TIMEOUT_SECONDS, Type.LONG, 300L, Range.between(1, 3_600), Importance.LOW,
                "The longest a write with ?waitFor= waits for its generation to converge (both APIs); a larger"
                    + " timeoutSeconds, or none, waits this long. Past it the write is answered 202 with the object as it"
                    + " stands and X-Statesync-Wait: Timeout.")
            .define(WRITE_WAIT_MAX_WAITING, Type.INT, 1_000, Range.between(1, 1_000_000), Importance.LOW,
                "The most writes waiting for convergence at once on this instance (both APIs together); one more is"
                    + " refused 429 with Retry-After before it is submitted. A waiting write holds no server thread,"
                    + " only its connection.")
            .define(WATCH_MAX_OPEN, Type.INT, 2_000, Range.between(1, 1_000_000), Importance.LOW,
                "The most watches open at once on this instance (both APIs together); one more is answered 429 with"
                    + " Retry-After. A waiting watch holds no server thread, only its connection and a cursor.")
            .define(WATCH_MAX_OPEN_PER_TOKEN, Type.INT, 500, Range.between(1, 1_000_000), Importance.LOW,
                "The most watches one bearer token may hold open at once on this instance (per client address when"
                    + " auth is off); one more is answered 429 with Retry-After.")
            .define(WATCH_THREADS, Type.INT, 4, Range.between(1, 256), Importance.LOW,
                "Threads that write watch events. Watches that wait hold none; a client that stops reading holds"
                    + " one for at most watch.send.timeout.ms.")
            .define(WATCH_MIN_REQUEST_TIMEOUT_MS, Type.LONG, 1_800_000L, Range.between(1_000, 86_400_000), Importance.LOW,
                "Kubernetes' --min-request-timeout (in milliseconds here): a watch without timeoutSeconds (or with 0)"
                    + " ends after a random time between this and twice this, as a clean end of its stream, which frees"
                    + " its place under watch.max.open even when its client went silent without leaving. Clients such"
                    + " as informers watch again from their last resourceVersion. A timeoutSeconds the client gives is"
                    + " kept as given, longer ones too.");
    }

    /** The bounds on what clients of the resource view may hold open or make the server hold. */
    private static void defineView(ConfigDef def) {
        def.define(VIEW_SNAPSHOT_ENABLED, Type.BOOLEAN, true, Importance.LOW,
                "Write the REST resource view to <state.dir>/<application.id>/ at a clean stop, and start from it and the"
                    + " topic's tail instead of reading statesync.resources from the beginning (when it is still valid).")
            .define(VIEW_SNAPSHOT_MAX_AGE_MS, Type.LONG, 3_600_000L, Range.between(0, 7L * 24 * 3_600_000), Importance.LOW,
                "An older view snapshot is not used. The limit is also capped at statesync.resources' delete.retention.ms,"
                    + " so that no deletion is missed because its tombstone was compacted away.")
            .define(VIEW_SPILL_BYTES, Type.LONG, 32L * 1024 * 1024, Range.between(0, Long.MAX_VALUE), Importance.LOW,
                "The most bytes of resources the REST view holds on the heap: once it holds this many, it writes its"
                    + " snapshot while running and maps the values back from the file, so that the heap keeps keys and"
                    + " summaries only. It writes earlier, from a quarter of this, when it also holds a quarter of what"
                    + " the snapshot file holds. 0 writes the snapshot at a clean stop only. Needs view.snapshot.enabled.")
            .define(VIEW_SPILL_INTERVAL_MS, Type.LONG, 10_000L, Range.between(0, 86_400_000), Importance.LOW,
                "The least time between two such writes of the REST view's snapshot (each rewrites the whole view).")
            .define(VIEW_RING_CAPACITY, Type.INT, 200_000, Range.between(10, 50_000_000), Importance.LOW,
                "Recent changes the REST view keeps for watches; a watch from a position older than these is answered"
                    + " 410 Gone (Expired in the Kubernetes API) and the client lists again.")
            .define(VIEW_RING_BYTES, Type.LONG, 32L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes the REST view's change ring holds on the heap for watches (each change's resource, the"
                    + " one a modification replaced, and the change itself; a value the view has moved to its snapshot"
                    + " file counts its key only), beside view.ring.capacity; the oldest changes leave first, and a"
                    + " watch from before them is answered 410. The default leaves most of the launcher's default heap"
                    + " to the rest of the instance.")
            .define(VIEW_JSON_CACHE_BYTES, Type.LONG, 16L * 1024 * 1024, Range.between(0, 1L << 40), Importance.LOW,
                "The most bytes of rendered JSON the REST server caches for point reads and watches. 0: no cache.")
            .define(LIST_MAX_BYTES, Type.LONG, 16L * 1024 * 1024, Range.between(64 * 1024, 1L << 40), Importance.LOW,
                "The most bytes of resources (as stored on statesync.resources) one list page holds; a longer page is"
                    + " cut short with a continue token. A Kubernetes list without limit that would pass it is"
                    + " refused with 400 and told to page (limit and continue).");
    }

    /** Namespaces: what a write into a missing namespace does, and how a deleted namespace is emptied. */
    private static void defineNamespaces(ConfigDef def) {
        def.define(NAMESPACE_LIFECYCLE, Type.STRING, "auto-provision", ValidString.in("auto-provision", "enforce"),
                Importance.MEDIUM,
                "What a write into a namespace that has no Namespace object does. auto-provision: it is accepted, and"
                    + " the namespace exists while it holds resources, without an object (no Namespace is created)."
                    + " enforce: it is refused with 404 NotFound, namespaces \"<name>\" not found, as Kubernetes'"
                    + " NamespaceLifecycle refuses it. Either way a create in a namespace being deleted is refused with"
                    + " 403 Forbidden, and deletes are never refused.")
            .define(NAMESPACE_DELETION_BATCH_MAX_ITEMS, Type.INT, 500, Range.between(1, 100_000), Importance.LOW,
                "The most resources of deleted namespaces and deleted CustomResourceDefinitions' kinds one round of the"
                    + " content deleter deletes (one batch of deletes, submitted together); the rest wait for the next"
                    + " round.")
            .define(NAMESPACE_DELETION_BATCH_MAX_BYTES, Type.LONG, 4L * 1024 * 1024, Range.between(64 * 1024, 1L << 40),
                Importance.LOW,
                "The most bytes of resources (as stored on statesync.resources) of deleted namespaces and definitions"
                    + " one round of the content deleter deletes; the first always counts as fitting.")
            .define(NAMESPACE_DELETION_INTERVAL_MS, Type.LONG, 1_000L, Range.between(10, 3_600_000), Importance.LOW,
                "The pause between two rounds of the content deleter, which deletes the resources of namespaces and of"
                    + " CustomResourceDefinitions being deleted and releases each once it is empty.");
    }
}
