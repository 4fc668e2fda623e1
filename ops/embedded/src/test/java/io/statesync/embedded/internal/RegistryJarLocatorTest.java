package io.statesync.embedded.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegistryJarLocatorTest {
    @TempDir
    Path root;

    @Test
    void shouldPreferSystemPropertyOverEnvironment() throws IOException {
        Path fromProperty = touch(root.resolve("a/quarkus-run.jar"));
        Path fromEnv = touch(root.resolve("b/quarkus-run.jar"));
        Properties props = props(root.resolve("elsewhere"));
        props.setProperty(RegistryJarLocator.JAR_PROPERTY, fromProperty.toString());

        Path found = new RegistryJarLocator(props, Map.of(RegistryJarLocator.JAR_ENV, fromEnv.toString())).find();

        assertThat(found).isEqualTo(fromProperty.toAbsolutePath());
    }

    @Test
    void shouldUseEnvironmentWhenNoSystemProperty() throws IOException {
        Path fromEnv = touch(root.resolve("b/quarkus-run.jar"));

        Path found = new RegistryJarLocator(props(root), Map.of(RegistryJarLocator.JAR_ENV, fromEnv.toString())).find();

        assertThat(found).isEqualTo(fromEnv.toAbsolutePath());
    }

    @Test
    void shouldFindJarUpwardFromWorkingDirectory() throws IOException {
        Path jar = touch(root.resolve(RegistryJarLocator.RELATIVE_JAR));
        Path moduleDir = Files.createDirectories(root.resolve("topology/src"));

        Path found = new RegistryJarLocator(props(moduleDir), Map.of()).find();

        assertThat(found).isEqualTo(jar);
    }

    @Test
    void shouldFindJarUnderRepoRootProperty() throws IOException {
        Path repo = Files.createDirectories(root.resolve("repo"));
        Path jar = touch(repo.resolve(RegistryJarLocator.RELATIVE_JAR));
        Properties props = props(Files.createDirectories(root.resolve("unrelated")));
        props.setProperty(RegistryJarLocator.REPO_ROOT_PROPERTY, repo.toString());

        assertThat(new RegistryJarLocator(props, Map.of()).find()).isEqualTo(jar);
    }

    @Test
    void shouldExplainHowToBuildWhenJarIsMissing() {
        assertThatThrownBy(() -> new RegistryJarLocator(props(root), Map.of()).find())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mvn -B -q package -f ops/registry/pom.xml")
                .hasMessageContaining(RegistryJarLocator.JAR_ENV);
    }

    @Test
    void shouldRejectExplicitJarThatDoesNotExist() {
        Properties props = props(root);
        props.setProperty(RegistryJarLocator.JAR_PROPERTY, root.resolve("missing.jar").toString());

        assertThatThrownBy(() -> new RegistryJarLocator(props, Map.of()).find())
                .hasMessageContaining("missing.jar").hasMessageContaining("does not exist");
    }

    private static Properties props(Path workingDir) {
        Properties props = new Properties();
        props.setProperty("user.dir", workingDir.toString());
        return props;
    }

    private static Path touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, new byte[0]);
    }
}
