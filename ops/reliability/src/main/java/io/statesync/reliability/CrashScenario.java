package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * App crash: statesync runs as a child process under steady desired writes and an agent, and is killed with
 * SIGKILL at random moments. Figures: acknowledged writes missing from statesync.resources, duplicate corrections
 * per (uid, generation, attempt, reason, action) under read_committed, and the time from restart to /readyz.
 */
public final class CrashScenario {

    /** The figures of one run. */
    /**
     * @param timesToReady        per restart, from launching the JVM to /readyz 200
     * @param streamsStartToReady per restart, the part after statesync had started its streams ({@link ChildApp#streamsStartToReady()})
     */
    public record Report(int kills, LoadedPipeline.Outcome load, List<Duration> timesToReady, List<Duration> streamsStartToReady,
                         Duration elapsed) {

        public boolean passed() {
            return load.intact() && kills == timesToReady.size();
        }
    }

    /** A short session timeout, so that the killed member's partitions move on in seconds rather than 45 s. */
    public static final Map<String, Object> FAST_FAILOVER = Map.of(
        "streams.session.timeout.ms", 6_000, "streams.heartbeat.interval.ms", 1_500);

    private final ScenarioTarget target;
    private final Path workDir;

    /** @param target the config the child runs with; its {@code appRunning} is ignored (the child is probed instead) */
    public CrashScenario(ScenarioTarget target, Path workDir) {
        this.target = target;
        this.workDir = workDir;
    }

    public Report run(int kills, Duration minUp, Duration maxUp, long seed, Duration timeout) throws Exception {
        return run(kills, minUp, maxUp, seed, timeout, timeout);
    }

    /**
     * @param readyBound how long a restart after SIGKILL may take to {@code /readyz} 200; a slower one fails the run,
     *                   naming the restart and the times of the earlier ones
     * @param timeout    every other wait (first start, the load's drain)
     */
    public Report run(int kills, Duration minUp, Duration maxUp, long seed, Duration readyBound, Duration timeout) throws Exception {
        long start = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        List<Duration> timesToReady = new ArrayList<>();
        List<Duration> streamsStartToReady = new ArrayList<>();
        try (ChildApp app = new ChildApp(target.config(), workDir.resolve("statesync-child.log"))) {
            app.startAndAwaitReady(timeout);
            try (LoadedPipeline load = new LoadedPipeline(target, "CrashLoad")) {
                for (int i = 0; i < kills; i++) {
                    Waits.sleep(minUp.toMillis() + random.nextLong(Math.max(1, maxUp.toMillis() - minUp.toMillis())));
                    app.kill();
                    try {
                        timesToReady.add(app.startAndAwaitReady(readyBound));
                        streamsStartToReady.add(app.streamsStartToReady());
                    } catch (IllegalStateException e) {
                        throw new IllegalStateException("restart " + (i + 1) + " of " + kills + " after SIGKILL was not ready within "
                            + readyBound + " (earlier restarts took " + timesToReady + ")", e);
                    }
                }
                Waits.sleep(minUp.toMillis());
                return new Report(kills, load.finish(timeout), timesToReady, streamsStartToReady,
                    Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }
}
