package io.statesync.serde;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Condition;
import io.statesync.avro.CorrectionRef;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.schemas.Values;

/** Records shaped like the ones the pipeline writes. */
final class SerdeFixtures {

    static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

    private SerdeFixtures() {
    }

    static Map<String, Object> webAppSpec() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("replicas", 5);
        spec.put("image", "nginx:1.21");
        spec.put("port", 8080);
        spec.put("env", Map.of("ENV", "production"));
        spec.put("ratio", 0.25);
        spec.put("enabled", true);
        spec.put("note", null);
        spec.put("containers", List.of(Map.of("name", "web", "cpu", "500m"), Map.of("name", "sidecar")));
        return spec;
    }

    static Resource resource() {
        ObjectMeta meta = ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setUid("3f1c2a4e-9b7d-4c1e-8a55-0d2f6b1e7c90").setResourceVersion("42").setGeneration(2)
            .setCreationTimestamp(NOW).setLabels(Map.of("app", "shop", "tier", "web"))
            .setAnnotations(Map.of("owner", "team-web")).setFinalizers(List.of("statesync.io/cleanup")).build();
        CorrectionRef last = CorrectionRef.newBuilder().setCommandId("cmd-1").setAction(Action.UPDATE)
            .setReason(Reason.SpecChanged).setGeneration(2).setAttempt(1).setIssuedAt(NOW)
            .setDeadline(NOW.plusSeconds(30)).build();
        ResourceStatus status = ResourceStatus.newBuilder().setObservedGeneration(2).setSyncStatus(SyncStatus.Synced)
            .setConditions(List.of(Condition.newBuilder().setType("Ready").setStatus("True").setReason("Converged")
                .setMessage("all fields match").setLastTransitionTime(NOW).build()))
            .setAttempts(1).setLastCorrection(last).setConvergedAt(NOW).setLastObservedAt(NOW).build();
        return Resource.newBuilder().setMetadata(meta).setSpec(Values.fromJava(webAppSpec())).setStatus(status).build();
    }

    static DesiredState desired() {
        return DesiredState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setSpec(Values.fromJava(webAppSpec())).build();
    }
}
