package io.statesync.bench.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import io.statesync.avro.Correction;
import io.statesync.avro.EventType;
import io.statesync.avro.FieldOp;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.TopologyFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency suite's contract floor answers that suite's writes with the records, and fields, the contract asks for. */
class ContractFloorStepTest {

    private static final String KEY = Workload.key(7);

    @TempDir
    Path stateDir;

    private TopologyFixture floor;

    @BeforeEach
    void start() {
        floor = TopologyFixture.around(stateDir, FloorTopology::contract);
    }

    @AfterEach
    void stop() {
        floor.close();
    }

    @Test
    void shouldPublishAVersionedProgressingResourceAndAPatchedCorrectionForADesiredWrite() {
        floor.desired.pipeInput(KEY, Workload.desired(7, Workload.spec(1, 3)));

        Resource r = floor.resources.readValue();
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getMetadata().getResourceVersion()).isNotEmpty();
        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing);
        assertThat(r.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus())
            .containsExactly("Synced=False", "Progressing=True", "Stalled=False", "ObservedStale=False");
        assertThat(r.getStatus().getDiff()).hasSize(5);
        Correction c = floor.corrections.readValue();
        assertThat(r.getStatus().getLastCorrection().getCommandId()).isEqualTo(c.getCommandId());
        assertThat(c.getReason()).isEqualTo(Reason.SpecChanged);
        assertThat(c.getPatch()).extracting(op -> String.join(".", op.getPath()))
            .containsExactlyInAnyOrder("image", "replicas", "port", "env", "containers");
        assertThat(c.getDesiredSpec()).isEqualTo(r.getSpec());
        assertThat(floor.events.isEmpty()).isTrue();
    }

    @Test
    void shouldPublishSyncedWithAConvergedEventWhenTheAgentReportsTheSpec() {
        floor.desired.pipeInput(KEY, Workload.desired(7, Workload.spec(1, 3)));
        Resource progressing = floor.resources.readValue();
        floor.observed.pipeInput(KEY, Workload.observed(7, 1, Workload.spec(1, 3), floor.corrections.readValue().getCommandId()));

        Resource synced = floor.resources.readValue();
        assertThat(synced.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.getStatus().getObservedGeneration()).isEqualTo(1);
        assertThat(synced.getStatus().getConvergedAt()).isNotNull();
        assertThat(synced.getStatus().getDiff()).isEmpty();
        assertThat(Long.parseLong(synced.getMetadata().getResourceVersion()))
            .isGreaterThan(Long.parseLong(progressing.getMetadata().getResourceVersion()));
        // The conditions that kept their status keep their transition time.
        assertThat(synced.getStatus().getConditions().get(2).getLastTransitionTime())
            .isEqualTo(progressing.getStatus().getConditions().get(2).getLastTransitionTime());
        ReconcileEvent e = floor.events.readValue();
        assertThat(e.getType()).isEqualTo(EventType.Converged);
        assertThat(e.getGeneration()).isEqualTo(1);
        assertThat(floor.corrections.isEmpty()).isTrue();
    }

    @Test
    void shouldCorrectOnlyTheDriftedFieldWhenTheAgentReportsADriftAtTheCurrentGeneration() {
        floor.desired.pipeInput(KEY, Workload.desired(7, Workload.spec(0, 3)));
        floor.corrections.readValue();
        floor.observed.pipeInput(KEY, Workload.observed(7, 1, Workload.spec(0, 3), null));
        floor.observed.pipeInput(KEY, withObservedAt(Workload.observed(7, 1, Workload.spec(0, 4), null), Instant.now().plusSeconds(1)));

        Correction c = floor.corrections.readValue();
        assertThat(c.getReason()).isEqualTo(Reason.Drift);
        assertThat(c.getPatch()).extracting(FieldOp::getPath).containsExactly(List.of("replicas"));
        assertThat(floor.resources.readValuesToList()).last()
            .satisfies(r -> assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing));
        assertThat(floor.events.readValuesToList()).extracting(ReconcileEvent::getType).containsExactly(EventType.Converged);
    }

    private static ObservedState withObservedAt(ObservedState o, Instant at) {
        o.setObservedAt(at);
        return o;
    }
}
