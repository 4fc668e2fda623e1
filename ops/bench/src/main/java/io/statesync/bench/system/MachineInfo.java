package io.statesync.bench.system;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/** What the figures were measured on and under which load: ratios travel, absolute figures need this context. */
public final class MachineInfo {

    private MachineInfo() {
    }

    public static String describe(String[] args) {
        return String.format("date: %s | nproc: %d | memory: %s | java: %s | JVM options: %s | args: %s%n%s",
            Instant.now(), Runtime.getRuntime().availableProcessors(), memTotal(), System.getProperty("java.version"),
            String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()), String.join(" ", args), load());
    }

    public static String load() {
        return "load average (1/5/15 min): " + read("/proc/loadavg").trim();
    }

    private static String memTotal() {
        return read("/proc/meminfo").lines().filter(l -> l.startsWith("MemTotal")).findFirst()
            .map(l -> l.replaceAll("\\s+", " ")).orElse("?");
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            return "?";
        }
    }
}
