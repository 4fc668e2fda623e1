package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.reconciler.ReconcilePolicy;
import org.junit.jupiter.api.Test;

/** Kinds only the API serves are Synced at once and never corrected; kinds of other groups, and cluster scope, are ordinary. */
class ApiOnlyKindsTopologyTest extends TopologyTestBase {

    private static final String CRD = ApiOnlyKinds.CUSTOM_RESOURCE_DEFINITION + "//widgets.example.com";

    private Resource settle(String key, Map<String, Object> spec) {
        f.putDesired(TopologyFixture.desiredState(key, spec));
        f.advance(Duration.ofSeconds(1));
        List<Resource> rs = f.drainResources();
        return rs.get(rs.size() - 1);
    }

    @Test
    void shouldStoreADefinitionSyncedWithoutSendingACorrection() {
        Resource r = settle(CRD, Map.of("group", "example.com", "scope", "Namespaced"));

        assertThat(r.getMetadata().getNamespace()).isEmpty();
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(f.drainCorrections()).isEmpty();
    }

    @Test
    void shouldHoldADeletedDefinitionByItsCleanupFinalizerAndNotWaitForAnAgent() {
        Resource created = settle(CRD, Map.of("group", "example.com"));
        f.deleteDesired(CRD);
        f.advance(Duration.ofSeconds(1));
        List<Resource> held = f.drainResources();
        release(CRD, Map.of("group", "example.com"));
        List<Resource> after = f.drainResources();

        assertThat(created.getMetadata().getFinalizers()).containsExactly(ApiOnlyKinds.DEFINITION_FINALIZER);
        assertThat(held).last().satisfies(r -> assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Deleting));
        assertThat(f.drainCorrections()).isEmpty();
        assertThat(after).as("the definition's tombstone on the resources topic").isNotEmpty();
        assertThat(after.get(after.size() - 1)).isNull();
    }

    /** Removes the finalizers of {@code key}, which is being deleted, as the server's content deleter does. */
    private void release(String key, Map<String, Object> spec) {
        f.putDesired(TopologyFixture.desiredState(key, spec));
        f.advance(Duration.ofSeconds(1));
    }

    @Test
    void shouldPublishTheDefinitionOfTheDefinedKindAndRetractItOnDelete() {
        var kinds = f.driver.createOutputTopic(f.topics.kinds(), new org.apache.kafka.common.serialization.StringDeserializer(),
            f.serdes.kindPolicy().deserializer());
        settle(CRD, Map.of("group", "example.com", "names", Map.of("kind", "Widget", "plural", "widgets"),
            "versions", List.of(Map.of("name", "v1", "served", true, "storage", true))));
        var published = kinds.readKeyValuesToList();
        f.deleteDesired(CRD);
        f.advance(Duration.ofSeconds(1));
        var whileDeleting = kinds.readKeyValuesToList();
        release(CRD, Map.of("group", "example.com", "names", Map.of("kind", "Widget", "plural", "widgets"),
            "versions", List.of(Map.of("name", "v1", "served", true, "storage", true))));
        var retracted = kinds.readKeyValuesToList();
        ReconcilePolicy policy = new PolicyCatalog(f.driver.getKeyValueStore(StatesyncTopology.KINDS_STORE),
            f.serdes.kindPolicy().deserializer(), f.topics.kinds()).forAdmission("Widget.example.com");

        assertThat(published).last().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("Widget.example.com/definition");
            assertThat(kv.value.getDefinition()).contains("\"plural\":\"widgets\"");
        });
        assertThat(whileDeleting).as("served while its objects are deleted").allSatisfy(kv -> assertThat(kv.value).isNotNull());
        assertThat(retracted).last().satisfies(kv -> {
            assertThat(kv.key).isEqualTo("Widget.example.com/definition");
            assertThat(kv.value).isNull();
        });
        assertThat(policy.definition().defined()).as("the definition is gone once retracted").isFalse();
    }

    @Test
    void shouldGiveAdmissionTheDefinitionOfTheKind() {
        settle(CRD, Map.of("group", "example.com", "names", Map.of("kind", "Widget", "plural", "widgets"),
            "versions", List.of(Map.of("name", "v1", "served", true, "storage", true,
                "schema", Map.of("openAPIV3Schema", Map.of("type", "object"))))));
        f.kinds.pipeInput("Widget.example.com", KindPolicy.newBuilder().setKind("Widget.example.com").setMaxAttempts(3).build());

        ReconcilePolicy policy = new PolicyCatalog(f.driver.getKeyValueStore(StatesyncTopology.KINDS_STORE),
            f.serdes.kindPolicy().deserializer(), f.topics.kinds()).forAdmission("Widget.example.com");

        assertThat(policy.maxAttempts()).isEqualTo(3);
        assertThat(policy.definition().storageVersion()).isEqualTo("v1");
        assertThat(policy.definition().schema("v1")).containsEntry("type", "object");
    }

    @Test
    void shouldCorrectAClusterScopedKindOfAnotherGroupLikeAnyOther() {
        Resource r = settle("Region.example.com//eu-west", Map.of("zones", 3L));
        List<Correction> cs = f.drainCorrections();

        assertThat(r.getMetadata().getKind()).isEqualTo("Region.example.com");
        assertThat(r.getMetadata().getNamespace()).isEmpty();
        assertThat(cs).singleElement().satisfies(c -> {
            assertThat(c.getAction()).isEqualTo(Action.CREATE);
            assertThat(c.getNamespace()).isEmpty();
        });
    }

    @Test
    void shouldHoldADeletedNamespaceByItsFinalizerUntilTheFinalizerIsRemoved() {
        String ns = ApiOnlyKinds.NAMESPACE + "//team-a";
        f.putDesired(io.statesync.avro.DesiredState.newBuilder(TopologyFixture.desiredState(ns, Map.of())).setSpec(io.statesync.schemas.Values.fromJava(null)).build());
        f.advance(Duration.ofSeconds(1));
        List<Resource> first = f.drainResources();
        Resource created = first.get(first.size() - 1);
        assertThat(created.getMetadata().getFinalizers()).containsExactly(ApiOnlyKinds.NAMESPACE_FINALIZER);
        assertThat(created.getStatus().getSyncStatus()).as("a namespace without a spec").isEqualTo(SyncStatus.Synced);

        f.deleteDesired(ns);
        f.advance(Duration.ofSeconds(1));
        List<Resource> deleting = f.drainResources();
        assertThat(deleting).isNotEmpty();
        assertThat(deleting.get(deleting.size() - 1)).as("held while its finalizer stays").isNotNull()
            .satisfies(r -> {
                assertThat(r.getMetadata().getDeletionTimestamp()).isNotNull();
                assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Deleting);
            });

        f.putDesired(TopologyFixture.desiredState(ns, Map.of()));
        f.advance(Duration.ofSeconds(1));
        List<Resource> released = f.drainResources();
        assertThat(released).isNotEmpty();
        assertThat(released.get(released.size() - 1)).as("gone once the finalizer is removed").isNull();
    }

    @Test
    void shouldKeepTheNamespaceFinalizerOnANamespaceThatIsNotBeingDeleted() {
        String ns = ApiOnlyKinds.NAMESPACE + "//team-b";
        settle(ns, Map.of());
        Resource rewritten = settle(ns, Map.of("note", "a write that says no finalizers"));

        assertThat(rewritten.getMetadata().getFinalizers()).containsExactly(ApiOnlyKinds.NAMESPACE_FINALIZER);
    }
}
