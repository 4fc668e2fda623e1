package io.statesync.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.avro.Correction;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.schemas.Values;
import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.ResourceSummary;
import io.statesync.topology.StatesyncHeaders;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** Sends the engine's outputs to the named sinks of the processor it belongs to. */
final class ForwardingOutput implements ReconcileEngine.Output {

    private final ProcessorContext<Object, Object> context;
    private final Serializer<Resource> resources;
    private final String resourcesTopic;
    private final DecodedStateStore states;

    ForwardingOutput(ProcessorContext<Object, Object> context, TopologyContext ctx) {
        this.context = context;
        this.resources = ctx.serdes().resource().serializer();
        this.resourcesTopic = ctx.topics().resources();
        this.states = DecodedStateStore.of(context.getStateStore(TopologyNames.STATE_STORE));
    }

    @Override
    public void resource(String key, Resource resource, long timestamp) {
        Headers headers = new RecordHeaders();
        if (resource != null) {
            headers.add(StatesyncHeaders.RESOURCE_SUMMARY, ResourceSummary.of(resource).encode());
        }
        if (resource == null) {
            context.forward(new Record<>(key, null, timestamp, headers), TopologyNames.RESOURCES_SINK);
            return;
        }
        // Encoded here rather than by the sink, so that the commit can write the same bytes into the key's state
        // record; the sink's serializer still holds them to the topics' limit (see WireBytesSerializer).
        byte[] wire = resources.serialize(resourcesTopic, headers, resource);
        context.forward(new Record<>(key, wire, timestamp, headers), TopologyNames.RESOURCES_SINK);
        states.published(key, resource, wire);
        if (ApiOnlyKinds.CUSTOM_RESOURCE_DEFINITION.equals(resource.getMetadata().getKind())) {
            definition(resource, false, timestamp);
        }
    }

    @Override
    public void deleted(String key, Resource last, long timestamp) {
        resource(key, null, timestamp);
        if (last != null && ApiOnlyKinds.CUSTOM_RESOURCE_DEFINITION.equals(last.getMetadata().getKind())) {
            definition(last, true, timestamp);
        }
    }

    /**
     * The definition a stored CustomResourceDefinition gives its kind, or its tombstone once the definition is
     * deleted, on the kinds topic; nothing for a spec that names no kind.
     */
    private void definition(Resource crd, boolean gone, long timestamp) {
        JsonNode spec = Values.toJson(crd.getSpec());
        String kind = ApiOnlyKinds.definedKind(spec);
        if (kind == null) {
            return;
        }
        KindPolicy value = gone ? null : KindPolicy.newBuilder().setKind(kind).setDefinition(spec.toString()).build();
        context.forward(new Record<>(ApiOnlyKinds.definitionKey(kind), value, timestamp, new RecordHeaders()),
            TopologyNames.DEFINITIONS_SINK);
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
