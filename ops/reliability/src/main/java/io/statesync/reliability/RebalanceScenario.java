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
import io.statesync.server.ServerConfig;

/**
 * Rebalance: two statesync instances (child JVMs, one standby replica of every store) under steady load; one is
 * stopped and started again, cleanly (SIGTERM, leaving the group) or with SIGKILL, alternating. Figures: acknowledged
 * writes lost, duplicate corrections (read_committed), keys not Synced at their generation at the end, the REST
 * answers of both instances polled throughout and judged by {@link RestProbe} against {@link #REST_BOUNDS}, and the
 * time from a restart to both instances ready.
 */
public final class RebalanceScenario {

    /** How an instance goes away in one cycle. */
    public enum Stop { CLEAN, KILL }

    /** The figures of one run. */
    public record Report(List<Stop> cycles, LoadedPipeline.Outcome load, List<String> notSynced,
                         Map<String, Map<String, Long>> restAnswers, long restViolations, List<String> violationSamples,
                         List<String> restNotes, List<Duration> timesToAllRunning, Duration elapsed) {

        /** One instance's count of one kind of answer ({@link RestProbe#figures()}), 0 if none. */
        public long rest(String instance, String what) {
            return restAnswers.getOrDefault(instance, Map.of()).getOrDefault(what, 0L);
        }

        public boolean passed() {
            return load.intact() && notSynced.isEmpty() && restViolations == 0
                && timesToAllRunning.size() == cycles.size();
        }
    }

    /**
     * Below the default {@code max.stale.lag}, which no changelog of a CI-sized run reaches, so that the stale check
     * means something; docs/reliability.md ("REST reads during a rebalance") gives the stale lags seen.
     */
    static final long MAX_STALE_LAG = 1_000;

    /** One standby per store, so that the survivor can serve reads of the stopped instance's keys at once. */
    public static final Map<String, Object> SETTINGS = settings();

    /**
     * What a serving instance's REST answers are held to: every answer within 10 s, twice what a list may wait by design
     * for the view to reach the committed end; no partition (nor lists) answering only 503 for more than 30 s; stale
     * reads within {@link #MAX_STALE_LAG}. docs/reliability.md ("REST reads during a rebalance") gives the
     * measurements the bounds rest on.
     */
    static final RestProbe.Bounds REST_BOUNDS = new RestProbe.Bounds(Duration.ofSeconds(10), Duration.ofSeconds(30), MAX_STALE_LAG);

    private static final String KIND = "RebalanceLoad";
    private static final int KEYS = 50;

    private final ScenarioTarget target;
    private final Path workDir;
    private volatile boolean rebalancing;

    /** @param target the config both children run with (each gets its own state dir); its {@code appRunning} is ignored */
    public RebalanceScenario(ScenarioTarget target, Path workDir) {
        this.target = target;
        this.workDir = workDir;
    }

    private static Map<String, Object> settings() {
        Map<String, Object> s = new HashMap<>(CrashScenario.FAST_FAILOVER);
        s.put(AppConfig.NUM_STANDBY_REPLICAS, 1);
        s.put(ServerConfig.MAX_STALE_LAG, MAX_STALE_LAG);
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
                 StateChangelog changelog = new StateChangelog(target);
                 RestProbe probeA = probe("a", a, load, changelog);
                 RestProbe probeB = probe("b", b, load, changelog)) {
                // Let the tails catch up, so that the first reads are held to what was committed.
                Waits.sleep(up.toMillis());
                for (int i = 0; i < cycles; i++) {
                    Stop stop = i % 2 == 0 ? Stop.CLEAN : Stop.KILL;
                    boolean victimIsA = (i / 2) % 2 == 0;
                    Waits.sleep(up.toMillis());
                    stops.add(stop);
                    times.add(cycle(victimIsA ? a : b, victimIsA ? probeA : probeB, stop, down, a, b, timeout));
                }
                Waits.sleep(up.toMillis());
                LoadedPipeline.Outcome outcome = load.finish(timeout);
                Waits.until(() -> load.notSynced().isEmpty(), timeout);
                return report(stops, outcome, load.notSynced(), probeA, probeB, changelog, times, start);
            }
        }
    }

    private RestProbe probe(String name, ChildApp app, LoadedPipeline load, StateChangelog changelog) {
        return new RestProbe(name, app.httpPort(), KIND, KEYS, REST_BOUNDS, load, changelog, () -> rebalancing);
    }

    /** Stops the victim and starts it again; its probe expects it down or starting until both instances are ready. */
    private Duration cycle(ChildApp victim, RestProbe victimProbe, Stop stop, Duration down, ChildApp a, ChildApp b,
                           Duration timeout) throws Exception {
        rebalancing = true;
        victimProbe.restarting();
        if (stop == Stop.CLEAN) {
            victim.stop();
        } else {
            victim.kill();
        }
        Waits.sleep(down.toMillis());
        long restart = System.nanoTime();
        victim.startAndAwaitReady(timeout);
        awaitBothReady(a, b, timeout);
        Duration took = Duration.ofNanos(System.nanoTime() - restart);
        victimProbe.serving();
        rebalancing = false;
        return took;
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
                                 RestProbe probeB, StateChangelog changelog, List<Duration> times, long start)
        throws InterruptedException {
        probeA.close();
        probeB.close();
        Map<String, Map<String, Long>> answers = new LinkedHashMap<>();
        answers.put("a", probeA.figures());
        answers.put("b", probeB.figures());
        List<String> samples = new ArrayList<>(probeA.violations());
        samples.addAll(probeB.violations());

        long violations = probeA.violationCount() + probeB.violationCount();
        if (changelog.undecodable() > 0) {
            // An undecodable changelog record would leave a stale answer unjudged.
            violations += changelog.undecodable();
            samples.add(changelog.undecodable() + " undecodable records on the state store's changelog");
        }
        List<String> notes = List.of("a: longest 503 run: " + probeA.longestRun(), "b: longest 503 run: " + probeB.longestRun(),
            "state changelog offsets read per partition: " + changelog.readEnds());
        return new Report(stops, outcome, notSynced.stream().limit(10).toList(), answers, violations, samples, notes, times,
            Duration.ofNanos(System.nanoTime() - start));
    }

    private ChildApp child(String name) {
        Map<String, Object> props = new HashMap<>(target.config().originals());
        props.put(AppConfig.STATE_DIR, workDir.resolve("state-" + name).toString());
        return new ChildApp(new AppConfig(props), workDir.resolve("statesync-" + name + ".log"));
    }
}
