package io.statesync.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.statesync.app.ConfigCommand;
import io.statesync.config.AppConfig;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md is generated from every module's ConfigDef; this keeps the checked-in copy current. It runs
 * here, where the engine's, the server's and the Kubernetes API's sections are all on the class path.
 */
class ConfigurationDocsTest {

    /** {@code -Dstatesync.docs.write=true} rewrites the file instead of comparing it. */
    private static final String WRITE_PROPERTY = "statesync.docs.write";

    private static final String HOW_TO_REGENERATE = "docs/configuration.md must equal `statesync config docs` (generated from every module's ConfigDef). Regenerate it with"
        + " `./statesync config docs > docs/configuration.md` (from the repository root), or with"
        + " `mvn -B -o -pl topology/kube test -Dtest=ConfigurationDocsTest -D" + WRITE_PROPERTY + "=true`, and commit it.";

    @Test
    void shouldKeepCheckedInConfigurationReferenceEqualToGeneratedOne() throws IOException {
        Path file = RepoRoot.find().resolve("docs/configuration.md");
        String expected = ConfigCommand.configurationMarkdown();
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.writeString(file, expected, StandardCharsets.UTF_8);
        }
        assertThat(file).as("docs/configuration.md is missing; " + HOW_TO_REGENERATE).isRegularFile();
        String actual = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(actual).as(HOW_TO_REGENERATE).isEqualTo(expected);
    }

    @Test
    void shouldDocumentEveryConfigKey() {
        String markdown = ConfigCommand.configurationMarkdown();
        assertThat(AppConfig.configDef().names())
            .isNotEmpty()
            .allSatisfy(key -> assertThat(markdown).contains("| `" + key + "` |"));
    }
}
