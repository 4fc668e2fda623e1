package io.statesync.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.statesync.app.KindPolicySeeder;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.KindPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo policy that {@code statesync up} seeds parses and compiles, and its rules cover every health but Unknown. */
class DemoKindsTest {

    @Test
    void shouldSeedAWebAppPolicyWhoseRulesCompile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("demo-kinds.yaml");
        try (var in = UpCommand.class.getResourceAsStream("demo-kinds.yaml")) {
            Files.write(file, in.readAllBytes());
        }

        List<KindPolicy> policies = KindPolicySeeder.parse(file);

        assertThat(policies).extracting(KindPolicy::getKind).containsExactly("WebApp", "Deployment", "Service");
        assertThat(policies.get(0).getHealthRules()).extracting(r -> r.getStatus())
            .containsExactly(HealthStatus.Suspended, HealthStatus.Degraded, HealthStatus.Progressing, HealthStatus.Healthy);
        assertThat(policies.get(0).getValidationRules()).isNotEmpty();
        assertThat(policies.get(1).getHealthRules()).extracting(r -> r.getStatus())
            .containsExactly(HealthStatus.Degraded, HealthStatus.Suspended, HealthStatus.Progressing, HealthStatus.Healthy);
    }
}
