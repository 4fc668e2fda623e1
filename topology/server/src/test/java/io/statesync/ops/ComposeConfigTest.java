package io.statesync.ops;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** `docker-compose config -q` over the stack: the one validation possible here, where no container can run. */
class ComposeConfigTest {

    @Test
    void shouldPassDockerComposeConfigValidation() throws Exception {
        assumeTrue(new File("/usr/bin/docker-compose").canExecute(),
            "docker-compose is not installed (.ci/run installs Debian's docker-compose); skipping its validation");
        Path root = RepoRoot.find();
        Process p = new ProcessBuilder("/usr/bin/docker-compose", "-f", root.resolve("docker-compose.yml").toString(),
            "config", "-q").redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("docker-compose config finished").isTrue();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("docker-compose config -q said: %s", output).isZero();
    }
}
