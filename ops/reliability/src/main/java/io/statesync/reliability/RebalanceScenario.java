package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.statesync.config.AppConfig;

/**
 * Rebalance: two statesync instances (child JVMs, one standby replica of every store) under steady load; one is
 * stopped and started again, cleanly (SIGTERM, leaving the group) or with SIGKILL, alternating. Figures: acknowledged
 * writes lost, duplicate corrections (read_committed), keys not Synced at their generation at the end, the REST
 * answers of both instances polled throughout by status, and the time from a restart to both instances ready.
 */
public final class RebalanceScenario {

    /** How an instance goes away in one cycle. */
    public enum Stop { CLEAN, KILL }

    /** The figures of one run. */
    public record Report(List<Stop> cycles, LoadedPipeline.Outcome load, List<String> notSynced,
                         Map<String, Map<String, Long>> restAnswers, long restViolations, List<String> violationSamples,
                         List<Duration> timesToAllRunning, Duration elapsed) {

        public boolean passed() {
            return load.lostWrites() == 0 && load.duplicateCorrections() == 0 && notSynced.isEmpty() && restViolations == 0
                && timesToAllRunning.size() == cycles.size();
        }
    }

    /** One standby per store, so that the survivor can serve reads of the stopped instance's keys at once. */
    public static final Map<String, Object> SETTINGS = settings();

    private static final String KIND = "RebalanceLoad";
    private static final int KEYS = 50;

    private final ScenarioTarget target;
    private final Path workDir;

    /** @param target the config both children run with (each gets its own state dir); its {@code appRunning} is ignored */
    public RebalanceScenario(ScenarioTarget target, Path workDir) {
        this.target = target;
        this.workDir = workDir;
    }

    private static Map<String, Object> settings() {
        Map<String, Object> s = new HashMap<>(CrashScenario.FAST_FAILOVER);
        s.put(AppConfig.NUM_STANDBY_REPLICAS, 1);
        return Map.copyOf(s);
    }

    /** Cycle i stops instance {@code (i / 2) % 2}: first cleanly, then with SIGKILL, then the other instance. */
    public Report run(int cycles, Duration up, Duration down, Duration timeout) throws Exception {
        long start = System.nanoTime();
        List<Stop> stops = new ArrayList<>();
        List<Duration> times = new ArrayList<>();
        try (ChildApp a = child("a"); ChildApp b = child("b")) {
            // In parallel: each start is mostly a JVM warming up, and CI time is short.
            CompletableFuture<Duration> first = CompletableFuture.supplyAsync(() -> startUnchecked(a, timeout));
            b.startAndAwaitReady(timeout);
            first.join();
            awaitBothReady(a, b, timeout);
            try (LoadedPipeline load = new LoadedPipeline(target, KIND);
                 RestProbe probeA = new RestProbe("a", a.httpPort(), KIND, KEYS);
                 RestProbe probeB = new RestProbe("b", b.httpPort(), KIND, KEYS)) {
                for (int i = 0; i < cycles; i++) {
                    Stop stop = i % 2 == 0 ? Stop.CLEAN : Stop.KILL;
                    ChildApp victim = (i / 2) % 2 == 0 ? a : b;
                    Waits.sleep(up.toMillis());
                    stops.add(stop);
                    times.add(cycle(victim, stop, down, a, b, timeout));
                }
                Waits.sleep(up.toMillis());
                LoadedPipeline.Outcome outcome = load.finish(timeout);
                Waits.until(() -> load.notSynced().isEmpty(), timeout);
                return report(stops, outcome, load.notSynced(), probeA, probeB, times, start);
            }
        }
    }

    private Duration cycle(ChildApp victim, Stop stop, Duration down, ChildApp a, ChildApp b, Duration timeout) throws Exception {
        if (stop == Stop.CLEAN) {
            victim.stop();
        } else {
            victim.kill();
        }
        Waits.sleep(down.toMillis());
        long restart = System.nanoTime();
        victim.startAndAwaitReady(timeout);
        awaitBothReady(a, b, timeout);
        return Duration.ofNanos(System.nanoTime() - restart);
    }

    private static Duration startUnchecked(ChildApp app, Duration timeout) {
        try {
            return app.startAndAwaitReady(timeout);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** /readyz of both at once: streams RUNNING (no rebalance in progress) and every store queryable. */
    private static void awaitBothReady(ChildApp a, ChildApp b, Duration timeout) {
        if (!Waits.until(() -> a.ready() && b.ready(), timeout)) {
            throw new IllegalStateException("the two instances were not both ready within " + timeout);
        }
    }

    private static Report report(List<Stop> stops, LoadedPipeline.Outcome outcome, List<String> notSynced, RestProbe probeA,
                                 RestProbe probeB, List<Duration> times, long start) throws InterruptedException {
        probeA.close();
        probeB.close();
        Map<String, Map<String, Long>> answers = new LinkedHashMap<>();
        answers.put("a", withUnreachable(probeA));
        answers.put("b", withUnreachable(probeB));
        List<String> samples = new ArrayList<>(probeA.violations());
        samples.addAll(probeB.violations());
        return new Report(stops, outcome, notSynced.stream().limit(10).toList(), answers,
            probeA.violationCount() + probeB.violationCount(), samples, times, Duration.ofNanos(System.nanoTime() - start));
    }

    private static Map<String, Long> withUnreachable(RestProbe probe) {
        Map<String, Long> m = new LinkedHashMap<>(probe.byStatus());
        m.put("refused (instance down)", probe.unreachable());
        return m;
    }

    private ChildApp child(String name) {
        Map<String, Object> props = new HashMap<>(target.config().originals());
        props.put(AppConfig.STATE_DIR, workDir.resolve("state-" + name).toString());
        return new ChildApp(new AppConfig(props), workDir.resolve("statesync-" + name + ".log"));
    }
}
