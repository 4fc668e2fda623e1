package io.statesync.topology;

import java.time.Instant;

import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.reconciler.Diagnoser;
import io.statesync.reconciler.Diagnosis;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.topology.internal.AvroMapping;

/** Explains a stored resource: the reconciler's diagnosis over the state the owning task keeps for its key. */
public final class ResourceDiagnoser {

    private ResourceDiagnoser() {
    }

    public static Diagnosis diagnose(ReconcileState state, Resource resource, ReconcilePolicy policy, Instant now) {
        return Diagnoser.diagnose(resource.getMetadata().getGeneration(), AvroMapping.statusView(resource.getStatus()),
            AvroMapping.lastCorrection(state.getLastCorrection(), state.getLastCorrectionFingerprint(),
                state.getLastPlannedAttempt()), now, policy);
    }
}
