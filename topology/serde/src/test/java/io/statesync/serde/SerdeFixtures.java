package io.statesync.serde;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.schemas.Values;
import io.statesync.testing.SampleRecords;

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
        return SampleRecords.webApp(webAppSpec(), NOW);
    }

    static DesiredState desired() {
        return DesiredState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setSpec(Values.fromJava(webAppSpec())).build();
    }
}
