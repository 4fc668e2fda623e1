package io.statesync.launcher;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compilation thresholds {@code bin/statesync} gives the JVM, read back from the JVM itself
 * ({@code -XX:+PrintFlagsFinal}) through the built distribution.
 */
class LauncherJitOptionsIT {

    private static final int HOTSPOT_DEFAULT_TIER4_INVOCATIONS = 5000;

    @TempDir
    Path workDir;

    @Test
    void shouldStartTheJvmWithRaisedTier4Thresholds() throws Exception {
        String flags = launch(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"));

        assertThat(flag(flags, "Tier4InvocationThreshold")).isEqualTo(10 * HOTSPOT_DEFAULT_TIER4_INVOCATIONS);
        assertThat(flag(flags, "Tier4BackEdgeThreshold")).isEqualTo(400_000);
    }

    @Test
    void shouldLetJavaOptsOverrideTheThresholds() throws Exception {
        String flags = launch(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:Tier4InvocationThreshold=7000"));

        assertThat(flag(flags, "Tier4InvocationThreshold")).isEqualTo(7000);
    }

    @Test
    void shouldKeepHotSpotsThresholdsWhenAskedTo() throws Exception {
        String flags = launch(Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal", "STATESYNC_JIT", "default"));

        assertThat(flag(flags, "Tier4InvocationThreshold")).isEqualTo(HOTSPOT_DEFAULT_TIER4_INVOCATIONS);
    }

    private static long flag(String printedFlags, String name) {
        Matcher m = Pattern.compile("\\b" + name + "\\s*=\\s*(\\d+)").matcher(printedFlags);
        assertThat(m.find()).as(name + " in the JVM's flags").isTrue();
        return Long.parseLong(m.group(1));
    }

    /** Runs {@code bin/statesync run --help} with {@code env}, without a class archive. */
    private String launch(Map<String, String> env) throws Exception {
        Map<String, String> vars = new HashMap<>(env);
        vars.put("STATESYNC_CDS", "off");
        return BuiltLauncher.runHelp(workDir, vars);
    }
}
