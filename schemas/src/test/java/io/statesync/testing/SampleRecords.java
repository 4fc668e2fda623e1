package io.statesync.testing;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;

/** Records shaped like the ones the pipeline writes, for the serde's tests and the benchmarks. */
public final class SampleRecords {

    private SampleRecords() {
    }

    /**
     * A WebApp as the resources topic holds it: metadata with labels, an annotation and a finalizer, {@code spec},
     * and a Synced status with one condition and its last correction, every time stamped {@code at}.
     */
    public static Resource webApp(Map<String, ?> spec, Instant at) {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid("3f1c2a4e-9b7d-4c1e-8a55-0d2f6b1e7c90").setResourceVersion("42").setGeneration(2)
            .setCreationTimestamp(at).setLabels(Map.of("app", "shop", "tier", "web"))
            .setAnnotations(Map.of("owner", "team-web")).setFinalizers(List.of("statesync.io/cleanup")).build();
        CorrectionRef last = CorrectionRef.newBuilder().setCommandId("cmd-1").setAction(Action.UPDATE)
            .setReason(Reason.SpecChanged).setGeneration(2).setAttempt(1).setIssuedAt(at)
            .setDeadline(at.plusSeconds(30)).build();
        ResourceStatus status = ResourceStatus.newBuilder().setObservedGeneration(2).setSyncStatus(SyncStatus.Synced)
            .setConditions(List.of(Condition.newBuilder().setType("Ready").setStatus("True").setReason("Converged")
                .setMessage("all fields match").setLastTransitionTime(at).build()))
            .setAttempts(1).setLastCorrection(last).setConvergedAt(at).setLastObservedAt(at).build();
        return Resource.newBuilder().setMetadata(meta).setSpec(Values.fromJava(spec)).setStatus(status).build();
    }
}
