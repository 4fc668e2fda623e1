package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The runnable example {@code docs/examples/widget-operator} builds the operator code {@link JavaOperatorSdkIT} runs,
 * with the Java Operator SDK version this build tests, and that code uses no statesync class.
 */
class WidgetOperatorExampleTest {

    private static final Path SOURCES = Path.of("src/test/java/com/example/widget");

    @Test
    void shouldBuildTheSourcesTheTestRunsWithTheTestedFrameworkVersion() throws IOException {
        Path example = JavaOperatorSdkIT.exampleDir();
        String pom = Files.readString(example.resolve("pom.xml"));
        String parent = Files.readString(example.resolve("../../../pom.xml").normalize());

        assertThat(property(pom, "josdk.version")).isEqualTo(property(parent, "josdk.version")).isNotEmpty();
        Path sourceRoot = example.resolve(property(pom, "sourceDirectory")).normalize();
        assertThat(sourceRoot).isEqualTo(SOURCES.toAbsolutePath().getParent().getParent().getParent().normalize());
        assertThat(pom).contains("<include>com/example/widget/**</include>");
        assertThat(example.resolve("crds.yaml")).exists();
        assertThat(example.resolve("widget.yaml")).exists();
    }

    @Test
    void shouldUseNoStatesyncClassInTheOperator() throws IOException {
        try (var files = Files.list(SOURCES)) {
            List<Path> java = files.filter(f -> f.toString().endsWith(".java")).toList();
            assertThat(java).hasSizeGreaterThanOrEqualTo(5);
            for (Path f : java) {
                assertThat(Files.readString(f)).as(f.toString()).doesNotContain("io.statesync");
            }
        }
    }

    private static String property(String xml, String element) {
        Matcher m = Pattern.compile("<" + Pattern.quote(element) + ">([^<]*)</" + Pattern.quote(element) + ">").matcher(xml);
        return m.find() ? m.group(1).trim() : "";
    }
}
