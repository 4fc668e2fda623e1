package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
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
    void shouldDeleteADefinitionWithoutWaitingForAnAgent() {
        settle(CRD, Map.of("group", "example.com"));
        f.drainResources();
        f.deleteDesired(CRD);
        f.advance(Duration.ofSeconds(1));

        List<Resource> after = f.drainResources();

        assertThat(f.drainCorrections()).isEmpty();
        assertThat(after).as("the definition's tombstone on the resources topic").isNotEmpty();
        assertThat(after.get(after.size() - 1)).isNull();
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
}
