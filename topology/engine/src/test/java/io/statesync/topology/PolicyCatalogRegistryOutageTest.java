package io.statesync.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.statesync.avro.KindPolicy;
import io.statesync.avro.ValidationRule;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.registry.CompatibilityLevel;
import io.statesync.registry.MockSchemaRegistry;
import io.statesync.registry.RegisteredSchema;
import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryException;
import io.statesync.serde.SerdeException;
import io.statesync.serde.SpecificAvroDeserializer;
import io.statesync.serde.SpecificAvroSerializer;
import org.apache.avro.Schema;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A kind's policy while the schema registry is down: the catalog's deserializer has no schema cached (a new process
 * or task), so the policy's bytes cannot be decoded. A write of the kind must then be refused for a retry, never
 * admitted under the defaults, a reconcile of the kind retried rather than run under the defaults, and once the
 * registry answers again the kind's own rules apply.
 */
class PolicyCatalogRegistryOutageTest {

    private static final String KINDS = "p.kinds";

    /** The real serde's registry client, over an in-process registry that can be taken down and brought back. */
    private static final class SwitchableRegistry implements SchemaRegistryClient {
        final MockSchemaRegistry registry = MockSchemaRegistry.forScope("policy-outage-" + java.util.UUID.randomUUID());
        volatile boolean down;
        int refused;

        private SchemaRegistryClient up() {
            if (down) {
                refused++;
                throw new SchemaRegistryException("Connection refused", SchemaRegistryException.NO_STATUS,
                    SchemaRegistryException.NO_ERROR_CODE, null);
            }
            return registry;
        }

        @Override
        public int register(String subject, Schema schema) {
            return up().register(subject, schema);
        }

        @Override
        public Optional<RegisteredSchema> lookup(String subject, Schema schema) {
            return up().lookup(subject, schema);
        }

        @Override
        public Schema getById(int id) {
            return up().getById(id);
        }

        @Override
        public CompatibilityLevel getCompatibility(String subject) {
            return up().getCompatibility(subject);
        }

        @Override
        public void setCompatibility(String subject, CompatibilityLevel level) {
            up().setCompatibility(subject, level);
        }

        @Override
        public boolean isCompatible(String subject, Schema schema) {
            return up().isCompatible(subject, schema);
        }
    }

    private final SwitchableRegistry registry = new SwitchableRegistry();
    private final Map<String, byte[]> kinds = new HashMap<>();
    private final PolicyCatalog catalog = new PolicyCatalog(new MapStore(kinds),
        new SpecificAvroDeserializer<>(KindPolicy.class, registry), KINDS);

    @Test
    void shouldRefuseWritesAndRetryReconcilesOfAKindWhosePolicyCannotBeDecodedWhileTheRegistryIsDownThenApplyItsRules() throws Exception {
        try (var serializer = new SpecificAvroSerializer<KindPolicy>(registry)) {
            kinds.put("WebApp", serializer.serialize(KINDS, KindPolicy.newBuilder().setKind("WebApp").setValidationRules(
                List.of(new ValidationRule("self.replicas <= 10", "at most 10 replicas", "replicas"))).build()));
        }
        registry.down = true;

        assertUnavailable("WebApp");
        assertUnavailable("WebApp");
        Thread.sleep(PolicyCatalog.RETRY_INTERVAL_MS + 100);
        int before = registry.refused;
        assertUnavailable("WebApp");
        assertThat(registry.refused).as("decoding is tried again after the retry interval").isGreaterThan(before);
        assertThatThrownBy(() -> catalog.forKind("WebApp")).as("a reconcile waits for the registry, not the defaults")
            .isInstanceOfSatisfying(SerdeException.class, e -> assertThat(e.isBadData()).isFalse());
        assertThat(catalog.forAdmission("Plain")).as("a kind with no stored policy has the defaults")
            .isEqualTo(ReconcilePolicy.defaults());

        registry.down = false;
        Thread.sleep(PolicyCatalog.RETRY_INTERVAL_MS + 100);
        ReconcilePolicy policy = catalog.forAdmission("WebApp");
        assertThat(refusal(policy, 30L)).as("a write that breaks the kind's rule")
            .isInstanceOfSatisfying(WriteAdmission.Refused.class,
                r -> assertThat(r.reason()).isEqualTo(WriteAdmission.VALIDATION_FAILED));
        assertThat(refusal(policy, 3L)).isInstanceOf(WriteAdmission.Accepted.class);
        assertThat(catalog.forKind("WebApp")).isSameAs(policy);
    }

    @Test
    void shouldKeepReconcilingAKindWhoseStoredBytesAreNotAPolicyWhileRefusingItsWrites() {
        kinds.put("Broken", new byte[] {1, 2, 3});

        assertUnavailable("Broken");
        assertThat(catalog.forKind("Broken")).as("bytes that will never decode do not stop the kind's reconciles")
            .isEqualTo(ReconcilePolicy.defaults());
    }

    private void assertUnavailable(String kind) {
        assertThatThrownBy(() -> catalog.forAdmission(kind)).as("never the defaults in place of the stored policy")
            .isInstanceOf(PolicyCatalog.PolicyUnavailableException.class)
            .hasMessageContaining("the policy of kind " + kind + " is stored but does not decode");
    }

    private static WriteAdmission.Decision refusal(ReconcilePolicy policy, long replicas) {
        return WriteAdmission.decide(null, TopologyFixture.desiredState("WebApp/default/shop",
            Map.of("image", "nginx:1", "replicas", replicas)), policy);
    }

    /** The kinds global store, read-only as the catalog sees it. */
    private record MapStore(Map<String, byte[]> map) implements ReadOnlyKeyValueStore<String, byte[]> {
        @Override
        public byte[] get(String key) {
            return map.get(key);
        }

        @Override
        public KeyValueIterator<String, byte[]> range(String from, String to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public KeyValueIterator<String, byte[]> all() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long approximateNumEntries() {
            return map.size();
        }
    }
}
