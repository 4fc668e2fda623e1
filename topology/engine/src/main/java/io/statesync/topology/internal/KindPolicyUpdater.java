package io.statesync.topology.internal;

import io.statesync.topology.PolicyCatalog;

import io.statesync.topology.ApiOnlyKinds;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.TopologyNames;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the global kinds store in step with statesync.kinds. It stores the raw bytes so that a restore
 * (which bypasses this processor) and live processing leave the same content. A record that does not decode is
 * stored as well, counted and logged (a global store processor cannot forward to the DLQ): dropping it would keep an
 * older policy live that a restart then replaces, and a registry outage must not lose a policy. Readers take such a
 * kind's policy as unknown: {@link PolicyCatalog} refuses its writes until the bytes decode or a new policy
 * replaces them, and listings skip it.
 */
public final class KindPolicyUpdater implements Processor<String, byte[], Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(KindPolicyUpdater.class);

    private final TopologyContext ctx;
    private KeyValueStore<String, byte[]> store;
    private Deserializer<io.statesync.avro.KindPolicy> deserializer;

    public KindPolicyUpdater(TopologyContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.store = context.getStateStore(TopologyNames.KINDS_STORE);
        this.deserializer = ctx.serdes().kindPolicy().deserializer();
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String kind = record.key();
        String defined = kind == null ? null : ApiOnlyKinds.definedKindOf(kind);
        if (!ResourceKey.isValidKind(defined != null ? defined : kind)) {
            LOG.warn("Ignoring kind policy with invalid key {}", kind);
            ctx.metrics().dlq("kinds");
            return;
        }
        if (record.value() == null) {
            store.delete(kind);
            return;
        }
        try {
            var policy = deserializer.deserialize(ctx.topics().kinds(), record.headers(), record.value());
            // Rules that do not compile do not refuse the record: the policy's other fields still apply, and the
            // catalog drops the rules with one warning (a restore, which bypasses this processor, would keep it too).
            PolicyCatalog.withoutRules(policy);
        } catch (RuntimeException e) {
            LOG.warn("Kind policy for {} does not decode; stored as it is, and writes of the kind are refused until it "
                + "decodes or is replaced: {}", kind, e.toString());
            ctx.metrics().dlq("kinds");
        }
        store.put(kind, record.value());
    }
}
