package io.statesync.bench.system;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;

/**
 * {@code statesync run} as a JVM of its own (the CLI main on this benchmark's class path, which holds the same jars
 * as the distribution), so that its RSS is statesync's alone: heap, metaspace, code, thread stacks and RocksDB.
 */
final class StandaloneInstance implements AutoCloseable {

    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

    private final Process process;
    private final int port;
    private final HttpClient http = HttpClient.newHttpClient();

    private StandaloneInstance(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts it with {@code jvmOptions} and every key of {@code config}, REST on a free port, output in {@code log}:
     * through the distribution's {@code bin/statesync} when it has been built (as an operator starts it, with its
     * class-data archive kept in {@code cdsDir}; {@code -Dstatesync.bench.standalone.cds=off} turns that off), otherwise
     * with this benchmark's class path. {@code -Dstatesync.bench.standalone.launcher=java} forces the latter.
     */
    static StandaloneInstance start(AppConfig config, List<String> jvmOptions, Path log, Path cdsDir) throws IOException {
        return start(distLauncher(), config, jvmOptions, log, cdsDir);
    }

    /** As {@link #start(AppConfig, List, Path, Path)}, through the given {@code bin/statesync} (null: this class path). */
    static StandaloneInstance start(Path launcher, AppConfig config, List<String> jvmOptions, Path log, Path cdsDir) throws IOException {
        int port = freePort();
        List<String> cmd = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (launcher != null) {
            cmd.addAll(List.of(launcher.toString(), "run"));
            pb.environment().put("JAVA_OPTS", String.join(" ", jvmOptions));
            // Another JDK for the instances only (-Dstatesync.bench.standalone.java.home), to compare runtimes.
            pb.environment().put("JAVA_HOME", System.getProperty("statesync.bench.standalone.java.home", System.getProperty("java.home")));
            pb.environment().put("STATESYNC_CDS_DIR", cdsDir.toString());
            pb.environment().put("STATESYNC_CDS", System.getProperty("statesync.bench.standalone.cds", "auto"));
        } else {
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.statesync.app.StatesyncMain", "run"));
        }
        config.originals().forEach((k, v) -> cmd.addAll(List.of("-D", k + "=" + v)));
        cmd.addAll(List.of("-D", ServerConfig.HTTP_PORT + "=" + port));
        Process p = pb.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new StandaloneInstance(p, port);
    }

    /** {@code ops/dist/target/statesync/bin/statesync} in the working directory or one above it; null when absent or not wanted. */
    static Path distLauncher() {
        if ("java".equals(System.getProperty("statesync.bench.standalone.launcher"))) {
            return null;
        }
        Path rel = Path.of("ops", "dist", "target", "statesync", "bin", "statesync");
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isExecutable(dir.resolve(rel))) {
                return dir.resolve(rel);
            }
        }
        return null;
    }

    /** SIGQUIT: the JVM prints a thread dump to its output (the instance's log), far cheaper than a jcmd JVM. */
    void threadDump() throws Exception {
        new ProcessBuilder("kill", "-QUIT", Long.toString(pid())).start().waitFor(5, TimeUnit.SECONDS);
    }

    long pid() {
        return process.pid();
    }

    /** Waits until {@code /readyz} answers 200: the streams are running and the REST resource view is loaded. */
    void awaitReady(Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        URI readyz = URI.create("http://127.0.0.1:" + port + "/readyz");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("statesync run exited with " + process.exitValue());
            }
            try {
                if (http.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // The REST server starts a moment after the JVM.
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("not ready within " + timeout);
    }

    /**
     * Reads every resource through the REST list, page by page, and returns how many it read: each one's bytes are
     * touched, so a view whose values are mapped from its snapshot then has all of them resident.
     */
    long listAll() throws Exception {
        ObjectMapper json = new ObjectMapper();
        long read = 0;
        String cont = "";
        do {
            URI page = URI.create("http://127.0.0.1:" + port + "/api/v1/resources?limit=5000"
                + (cont.isEmpty() ? "" : "&continue=" + URLEncoder.encode(cont, StandardCharsets.UTF_8)));
            HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("list answered " + r.statusCode());
            }
            JsonNode body;
            try (InputStream in = r.body()) {
                body = json.readTree(in);
            }
            read += body.path("items").size();
            cont = body.path("metadata").path("continue").asText("");
        } while (!cont.isEmpty());
        return read;
    }

    /** Heap used right after a full GC, in MB, from {@code jcmd GC.run} and {@code GC.heap_info}. */
    double heapAfterGcMb() throws Exception {
        jcmd("GC.run");
        Matcher m = HEAP_USED.matcher(jcmd("GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : -1;
    }

    /** The first {@code lines} lines of {@code jcmd GC.class_histogram}: which classes hold the heap. */
    String heapHistogram(int lines) throws Exception {
        return jcmd("GC.class_histogram").lines().limit(lines).collect(java.util.stream.Collectors.joining("\n"));
    }

    /** CPU seconds the instance has used so far (user + system, from /proc/<pid>/stat), to tell a start that waits from one that computes. */
    double cpuSeconds() throws IOException {
        return cpuSecondsOf(Files.readString(Path.of("/proc/" + pid() + "/stat")));
    }

    /** CPU seconds per thread name (as the kernel truncates it, 15 characters), largest first: where a start's CPU went. */
    String cpuByThread(int top) throws IOException {
        Map<String, Double> byName = new HashMap<>();
        try (var tasks = Files.list(Path.of("/proc/" + pid() + "/task"))) {
            for (Path task : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue; // the thread ended since the listing
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+$", "#");
                byName.merge(name, cpuSecondsOf(stat), Double::sum);
            }
        }
        return byName.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(top)
            .map(e -> String.format("%s %.2f", e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    /** User + system time of a process's or thread's {@code stat} line, in seconds (clock ticks of 1/100 s). */
    private static double cpuSecondsOf(String stat) {
        // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are the 12th and 13th.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    }

    /** A field of /proc/<pid>/status in MB: VmRSS (now), VmHWM (peak), RssFile (file-backed pages, mapped files). */
    double statusMb(String field) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid() + "/status")).stream().filter(l -> l.startsWith(field + ":"))
            .map(l -> Double.parseDouble(l.replaceAll("[^0-9]", "")) / 1024).findFirst().orElse(-1.0);
    }

    private String jcmd(String command) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(pid()), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** SIGTERM, which runs statesync's clean stop, then waits for it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
