package io.statesync.topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Resource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** A fresh {@link TopologyFixture} with default config per test. */
abstract class TopologyTestBase {

    @TempDir
    Path stateDir;
    TopologyFixture f;

    @BeforeEach
    void startDriver() {
        f = new TopologyFixture(stateDir, Map.of());
    }

    @AfterEach
    void closeDriver() {
        f.close();
    }

    static Resource last(List<Resource> rs) {
        assertThat(rs).isNotEmpty();
        return rs.get(rs.size() - 1);
    }
}
