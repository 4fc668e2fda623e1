package io.statesync.topology.internal;

import java.time.Duration;

import io.statesync.avro.DesiredState;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Propagation;
import io.statesync.topology.ClientRunning;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.WriteAdmission;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Admits writes from statesync.desired, serialized per key by its task: validation, CAS, generation and
 * resourceVersion assignment, then reconcile. It also owns the task's wall-clock timer, so that each task
 * has exactly one.
 */
public final class AdmissionProcessor implements Processor<byte[], byte[], Object, Object> {

    /** Each slice of a large store's recount is bounded in time, so that the task's records go on between them. */
    private static final Duration RECOUNT_INTERVAL = Duration.ofMillis(100);
    private static final long RECOUNT_BUDGET_NANOS = Duration.ofMillis(25).toNanos();

    private final TopologyContext ctx;
    private final AdmissionCommits commits;
    private ProcessorContext<Object, Object> context;
    private InputDecoder<DesiredState> decoder;
    private ReconcileEngine engine;
    private ForwardingOutput output;

    /** {@code commits} is shared by every admission processor of the instance. */
    public AdmissionProcessor(TopologyContext ctx, AdmissionCommits commits) {
        this.ctx = ctx;
        this.commits = commits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.decoder = ctx.desiredDecoder();
        this.output = new ForwardingOutput(context, ctx);
        this.engine = ReconcileEngine.create(ctx, context);
        // One processor per task counts the task's resources: the admission, which also owns the task's timer. A large
        // store is counted a slice per punctuation, so that the task is RUNNING before it has decoded every key.
        if (!engine.recountResources()) {
            RecountPunctuation recount = new RecountPunctuation(ClientRunning.in(context.appConfigs()), engine::recountSome,
                RECOUNT_BUDGET_NANOS);
            recount.cancelling(context.schedule(RECOUNT_INTERVAL, PunctuationType.WALL_CLOCK_TIME, recount));
        }
        if (commits.enabled()) {
            context.schedule(Duration.ofMillis(commits.punctuationMs()), PunctuationType.WALL_CLOCK_TIME, now -> {
                if (commits.ofThisThread().punctuated(now)) {
                    context.commit();
                }
            });
        }
        Duration interval = Duration.ofMillis(ctx.config().getLong(AppConfig.RESYNC_INTERVAL_MS));
        context.schedule(interval, PunctuationType.WALL_CLOCK_TIME, now -> engine.onTimer(now));
        if (ctx.config().getBoolean(AppConfig.RECONCILE_COALESCE_ENABLED)) {
            // Both processors' pending keys live in the task's state store, so this one batch serves the whole task.
            Duration batch = Duration.ofMillis(ctx.config().getLong(AppConfig.RECONCILE_BATCH_INTERVAL_MS));
            context.schedule(batch, PunctuationType.WALL_CLOCK_TIME, now -> engine.reconcilePending(now));
        }
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.forgetResources();
            ReconcileEngine.release(ctx, context);
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String topic = ctx.topics().desired();
        String requestId = StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.REQUEST_ID);
        String answerId = StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.ANSWER_ID);
        InputDecoder.Result<DesiredState> result = decoder.decode(topic, record.headers(), record.key(), record.value());
        long now = context.currentSystemTimeMs();
        commits.ofThisThread().admitted(now);
        if (result instanceof InputDecoder.Bad<DesiredState> bad) {
            output.deadLetter(record, bad);
            ctx.metrics().dlq("desired");
            engine.rejectInvalid(bad.key(), requestId, answerId, bad.reason() + ": " + bad.message(), now);
            requestCommitIfAsked(record);
            return;
        }
        InputDecoder.Ok<DesiredState> ok = (InputDecoder.Ok<DesiredState>) result;
        String deleteExpected = StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.EXPECTED_RESOURCE_VERSION);
        // A producer's unknown policy deletes in the background, the default; the REST API refuses one with 400.
        Propagation propagation = Propagation.parse(StatesyncHeaders.lastString(record.headers(),
            StatesyncHeaders.PROPAGATION_POLICY)).orElse(Propagation.Background);
        WriteAdmission.Refused tooLarge = engine.admit(new ReconcileEngine.Write(ok.key(), ok.resourceKey(), ok.value(),
            requestId, answerId, deleteExpected, record.timestamp(), propagation), now);
        if (tooLarge != null) {
            output.deadLetter(record, new InputDecoder.Bad<>(ok.key(), tooLarge.reason(), null, tooLarge.message()));
            ctx.metrics().dlq("desired");
        }
        requestCommitIfAsked(record);
    }

    /** A caller waits for this write's answer (its writer marked the last record it awaits on the partition). */
    private void requestCommitIfAsked(Record<byte[], byte[]> record) {
        if (record.headers().lastHeader(StatesyncHeaders.COMMIT_REQUESTED) != null
            && commits.ofThisThread().awaited(context.currentSystemTimeMs())) {
            context.commit();
        }
    }
}
