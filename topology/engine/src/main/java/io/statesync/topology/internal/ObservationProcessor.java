package io.statesync.topology.internal;

import io.statesync.avro.ObservedState;
import io.statesync.topology.StatesyncHeaders;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Stores the latest observed state per key, drops stale reports, and reconciles. */
public final class ObservationProcessor implements Processor<byte[], byte[], Object, Object> {

    private final TopologyContext ctx;
    private final AdmissionCommits commits;
    private ProcessorContext<Object, Object> context;
    private InputDecoder<ObservedState> decoder;
    private ReconcileEngine engine;
    private ForwardingOutput output;

    /** {@code commits} is shared with the admission processors: a status write is awaited as a desired write is. */
    public ObservationProcessor(TopologyContext ctx, AdmissionCommits commits) {
        this.ctx = ctx;
        this.commits = commits;
    }

    @Override
    public void init(ProcessorContext<Object, Object> context) {
        this.context = context;
        this.decoder = ctx.observedDecoder();
        this.output = new ForwardingOutput(context, ctx);
        this.engine = ReconcileEngine.create(ctx, context);
    }

    @Override
    public void close() {
        if (engine != null) {
            ReconcileEngine.release(ctx, context);
        }
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        InputDecoder.Result<ObservedState> result =
            decoder.decode(ctx.topics().observed(), record.headers(), record.key(), record.value());
        if (result instanceof InputDecoder.Bad<ObservedState> bad) {
            output.deadLetter(record, bad);
            ctx.metrics().dlq("observed");
            if (record.headers().lastHeader(StatesyncHeaders.OBSERVED_STATUS_ONLY) != null) {
                // A status write's writer awaits its answer: it learns why, instead of waiting out its timeout.
                engine.rejectInvalid(bad.key(), StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.REQUEST_ID),
                    StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.ANSWER_ID),
                    bad.reason() + ": " + bad.message(), context.currentSystemTimeMs());
            }
            return;
        }
        InputDecoder.Ok<ObservedState> ok = (InputDecoder.Ok<ObservedState>) result;
        if (ok.value() != null && record.headers().lastHeader(StatesyncHeaders.OBSERVED_STATUS_ONLY) != null) {
            statusOnly(record, ok);
            return;
        }
        engine.observe(ok.key(), ok.resourceKey(), ok.value(), record.timestamp(), context.currentSystemTimeMs());
    }

    /** A write to the status subresource: admitted against the stored Resource, and answered when awaited. */
    private void statusOnly(Record<byte[], byte[]> record, InputDecoder.Ok<ObservedState> ok) {
        long now = context.currentSystemTimeMs();
        commits.ofThisThread().admitted(now);
        ReconcileEngine.Write w = new ReconcileEngine.Write(ok.key(), ok.resourceKey(), null,
            StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.REQUEST_ID),
            StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.ANSWER_ID),
            StatesyncHeaders.lastString(record.headers(), StatesyncHeaders.EXPECTED_RESOURCE_VERSION), record.timestamp(),
            null);
        engine.observeStatus(w, ok.value(), now);
        if (record.headers().lastHeader(StatesyncHeaders.COMMIT_REQUESTED) != null
            && commits.ofThisThread().awaited(now)) {
            context.commit();
        }
    }
}
