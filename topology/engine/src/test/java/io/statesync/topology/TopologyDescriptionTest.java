package io.statesync.topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.statesync.config.AppConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Keeps docs/topology.md true: it must carry the current {@code Topology.describe()} output. */
class TopologyDescriptionTest {

    static String description() {
        AppConfig config = new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://describe"));
        return StatesyncTopology.build(config, new ReconcileMetrics(new SimpleMeterRegistry()), Clock.systemUTC())
            .describe().toString().trim();
    }

    @Test
    void shouldMatchTheDescriptionInDocs() throws Exception {
        Path doc = repoRoot().resolve("docs/topology.md");
        assertThat(Files.readString(doc))
            .as("docs/topology.md is stale; paste the output of TopologyDescriptionTest.main into its description block")
            .contains(description());
    }

    static Path repoRoot() {
        String prop = System.getProperty("statesync.repo.root");
        Path p = prop != null ? Path.of(prop) : Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("docs/topology.md"))) {
            p = p.getParent();
        }
        return p == null ? Path.of(".") : p;
    }

    public static void main(String[] args) {
        System.out.println(description());
    }
}
