package io.statesync.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measurements live in docs/benchmarks.md and docs/reliability.md, with their command, date and commit; the code keeps
 * the rule, the default and a pointer. A figure quoted in a comment or a string goes stale unseen, so this fails on
 * the shapes a quoted measurement takes, which a default or a bound does not: a measuring verb followed by a figure
 * with its unit, a ratio with decimals ({@code 0.74x}), a load average, or a date in a comment.
 */
class MeasuredFiguresTest {

    private static final String FIGURE = "\\d[\\d,.]*(?:\\s?(?:-|to)\\s?\\d[\\d,.]*)?\\s?(?:µs|us|ms|s|min|MB|GB|KB|MiB|GiB|KiB|%|x|rec/s|req/s|writes/s|PUT/s|/s)\\b";
    private static final Pattern MEASURED_FIGURE = Pattern.compile(
        "(?i)\\b(?:measured|we saw|took|showed|ran at)\\b[^.;:]{0,60}?" + FIGURE);
    private static final Pattern RATIO = Pattern.compile("\\b\\d+\\.\\d+x\\b");
    private static final Pattern LOAD_AVERAGE = Pattern.compile("(?i)load average (?:of )?(?:about )?\\d");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-\\d\\d-\\d\\d\\b");

    @Test
    void shouldQuoteNoMeasuredFigureInAnyJavaComment() throws IOException {
        Path root = ModuleSizeTest.repositoryRoot();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/")
                    && !f.toString().contains("/target/") && !f.endsWith("MeasuredFiguresTest.java"))
                .forEach(f -> quotes(read(f)).forEach(q -> found.add(root.relativize(f) + ":" + q)));
        }
        assertThat(found).as("measured figures belong in docs/benchmarks.md or docs/reliability.md, with the command,"
            + " date and commit; leave the rule, the default and a pointer to the section").isEmpty();
    }

    @Test
    void shouldFlagTheShapesOfAQuotedMeasurement() {
        assertThat(quotes("/** Measured 1.2 to 5.9 s on the 2 cores. */")).hasSize(1);
        assertThat(quotes("// With 20 ms a lone PUT took 20.6 ms at the median.")).hasSize(1);
        assertThat(quotes("String s = \"the defaults cost 0.91-1.16x the CPU\";")).hasSize(1);
        assertThat(quotes("/* up to 47 s with a load average of about 30 */")).hasSize(1);
        assertThat(quotes("// the run of 2026-11-25 showed it")).hasSize(1);
    }

    @Test
    void shouldLetDefaultsBoundsAndPointersPass() {
        assertThat(quotes("/** Waits up to 60 s; the session timeout is 45 s by default (1 MiB per fetch). */")).isEmpty();
        assertThat(quotes("// 6 tasks x 3 stores, each 3 x 16 MB; what is measured is in docs/benchmarks.md")).isEmpty();
        assertThat(quotes("Instant.parse(\"2026-01-01T00:00:00Z\"); LOG.info(\"took {} ms\", ms);")).isEmpty();
        assertThat(quotes("String f = \"%.2fx\"; // a ratio, printed")).isEmpty();
    }

    /** The quoted measurements in one Java source: each as line number and the text that matched. */
    static List<String> quotes(String source) {
        List<String> out = new ArrayList<>();
        for (JavaText t : JavaText.of(source)) {
            List<Pattern> patterns = t.comment() ? List.of(MEASURED_FIGURE, RATIO, LOAD_AVERAGE, DATE)
                : List.of(MEASURED_FIGURE, RATIO);
            for (Pattern p : patterns) {
                var m = p.matcher(t.text());
                if (m.find()) {
                    out.add(t.line() + ": " + m.group());
                }
            }
        }
        return out;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
