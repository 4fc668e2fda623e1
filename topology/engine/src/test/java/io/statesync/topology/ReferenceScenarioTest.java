package io.statesync.topology;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.FieldOp;
import io.statesync.avro.FieldOpType;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference scenario (a spec change from V1 to V2, the correction, the agent's report, Synced again) step by step,
 * on the real topology under TopologyTestDriver, against the pipeline semantics of docs/contract.md, section 5.
 */
class ReferenceScenarioTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/test-webapp";
    static final Map<String, Object> V1 = Map.of("image", "nginx:1.20", "replicas", 2L, "port", 80L,
        "env", Map.of("ENV", "production"));
    static final Map<String, Object> V2 = Map.of("image", "nginx:1.21", "replicas", 5L, "port", 8080L,
        "env", Map.of("ENV", "production"));


    @Test
    void shouldFollowTheReferenceScenarioExactly() {
        Resource synced1 = stepOneObservedInSyncAtGenerationOne();
        String uid = synced1.getMetadata().getUid();

        f.advance(Duration.ofSeconds(1));
        f.putDesired(TopologyFixture.desiredState(KEY, V2));
        List<Correction> update = f.drainCorrections();
        assertThat(update).hasSize(1);
        Correction c = update.get(0);
        assertThat(c.getAction()).isEqualTo(Action.UPDATE);
        assertThat(c.getReason()).isEqualTo(Reason.SpecChanged);
        assertThat(c.getGeneration()).isEqualTo(2);
        assertThat(c.getPatch()).extracting(FieldOp::getOp).containsOnly(FieldOpType.SET);
        assertThat(c.getPatch()).extracting(op -> String.join(".", op.getPath()) + "=" + Values.toJava(op.getValue()))
            .containsExactlyInAnyOrder("image=nginx:1.21", "replicas=5", "port=8080");
        assertThat(last(f.drainResources()).getMetadata().getGeneration()).isEqualTo(2);

        f.advance(Duration.ofMillis(200));
        f.observe(KEY, uid, 2, V2, c.getCommandId());
        Resource synced2 = last(f.drainResources());
        assertThat(synced2.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced2.getStatus().getObservedGeneration()).isEqualTo(2);

        f.putDesired(TopologyFixture.desiredState(KEY, V2));
        f.observe(KEY, uid, 2, V2, c.getCommandId());
        f.advance(Duration.ofSeconds(1));
        assertThat(f.drainCorrections()).as("reconciling again with no change emits nothing").isEmpty();
        assertThat(f.drainResources()).isEmpty();
        f.drainEvents();

        f.advance(Duration.ofSeconds(1));
        f.observe(KEY, uid, 2, Map.of("image", "nginx:1.21", "replicas", 3L, "port", 8080L, "env", Map.of("ENV", "production")), null);
        List<Correction> drift = f.drainCorrections();
        assertThat(drift).hasSize(1);
        assertThat(drift.get(0).getReason()).isEqualTo(Reason.Drift);
        assertThat(drift.get(0).getPatch()).hasSize(1);
        assertThat(drift.get(0).getPatch().get(0).getPath()).containsExactly("replicas");
        assertThat(Values.toJava(drift.get(0).getPatch().get(0).getValue())).isEqualTo(5L);
    }

    private Resource stepOneObservedInSyncAtGenerationOne() {
        f.putDesired(TopologyFixture.desiredState(KEY, V1));
        Resource created = last(f.drainResources());
        assertThat(created.getMetadata().getGeneration()).isEqualTo(1);
        List<Correction> create = f.drainCorrections();
        assertThat(create).hasSize(1);
        assertThat(create.get(0).getAction()).isEqualTo(Action.CREATE);
        f.advance(Duration.ofMillis(100));
        f.observe(KEY, created.getMetadata().getUid(), 1, V1, create.get(0).getCommandId());
        Resource synced = last(f.drainResources());
        assertThat(synced.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.getStatus().getObservedGeneration()).isEqualTo(1);
        f.drainEvents();
        return synced;
    }

}
