package io.statesync.topology.internal;

import io.statesync.avro.Correction;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.topology.ResourceSummary;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Sends the engine's outputs to the named sinks of the processor it belongs to. */
final class ForwardingOutput implements ReconcileEngine.Output {

    private final ProcessorContext<Object, Object> context;

    ForwardingOutput(ProcessorContext<Object, Object> context) {
        this.context = context;
    }

    @Override
    public void resource(String key, Resource resource, long timestamp) {
        Headers headers = new RecordHeaders();
        if (resource != null) {
            headers.add(StatesyncHeaders.RESOURCE_SUMMARY, ResourceSummary.of(resource).encode());
        }
        context.forward(new Record<>(key, resource, timestamp, headers), TopologyNames.RESOURCES_SINK);
    }

    @Override
    public void correction(String key, Correction correction, long timestamp) {
        context.forward(new Record<>(key, correction, timestamp, new RecordHeaders()), TopologyNames.CORRECTIONS_SINK);
    }

    @Override
    public void event(String key, ReconcileEvent event, long timestamp) {
        answer(key, event, null, timestamp);
    }

    @Override
    public void answer(String key, ReconcileEvent event, String answerId, long timestamp) {
        Headers headers = new RecordHeaders();
        if (event.getRequestId() != null) {
            headers.add(StatesyncHeaders.REQUEST_ID, StatesyncHeaders.utf8(event.getRequestId()));
        }
        if (answerId != null) {
            headers.add(StatesyncHeaders.ANSWER_ID, StatesyncHeaders.utf8(answerId));
        }
        context.forward(new Record<>(key, event, timestamp, headers), TopologyNames.EVENTS_SINK);
    }

    void deadLetter(Record<byte[], byte[]> source, InputDecoder.Bad<?> bad) {
        var meta = context.recordMetadata().orElse(null);
        String topic = meta == null ? "unknown" : meta.topic();
        int partition = meta == null ? -1 : meta.partition();
        long offset = meta == null ? -1 : meta.offset();
        Headers headers = DeadLetters.headers(source.headers(), bad.reason(), bad.error(), bad.message(), topic, partition, offset);
        context.forward(new Record<>(source.key(), source.value(), source.timestamp(), headers), TopologyNames.DLQ_SINK);
    }
}
