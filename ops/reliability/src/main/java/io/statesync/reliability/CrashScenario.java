package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

import io.statesync.avro.Resource;
import io.statesync.schemas.Values;

/**
 * App crash: statesync runs as a child process under steady desired writes and an agent, and is killed with
 * SIGKILL at random moments. Figures: acknowledged writes missing from statesync.resources, duplicate corrections
 * per (uid, generation, attempt, reason, action) under read_committed, and the time from restart to /readyz.
 */
public final class CrashScenario {

    /** The figures of one run. */
    public record Report(int kills, int ackedWrites, int lostWrites, long corrections, long duplicateCorrections,
                         long supersededAtSameAttempt, List<String> samples, List<Duration> timesToReady, Duration elapsed) {

        public boolean passed() {
            return lostWrites == 0 && duplicateCorrections == 0 && kills == timesToReady.size();
        }

        public Duration maxTimeToReady() {
            return timesToReady.stream().max(Duration::compareTo).orElse(Duration.ZERO);
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
        long start = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        Set<String> written = ConcurrentHashMap.newKeySet();
        List<Duration> timesToReady = new ArrayList<>();
        try (ChildApp app = new ChildApp(target.config(), workDir.resolve("statesync-child.log"))) {
            // The app creates its topics; a consumer subscribing earlier would auto-create them with the wrong shape.
            app.startAndAwaitReady(timeout);
            try (var resources = new TopicTail<>(target.clientProps(), target.topics().resources(),
                     target.serdes().resource().deserializer(), r -> collect(r.key(), (Resource) r.value(), written));
                 LoadAgent agent = new LoadAgent(target)) {
                Set<String> acked;
                try (DesiredLoad load = new DesiredLoad(target, "CrashLoad", 50, 40)) {
                    for (int i = 0; i < kills; i++) {
                        Waits.sleep(minUp.toMillis() + random.nextLong(Math.max(1, maxUp.toMillis() - minUp.toMillis())));
                        app.kill();
                        timesToReady.add(app.startAndAwaitReady(timeout));
                    }
                    Waits.sleep(minUp.toMillis());
                    load.close();
                    acked = new HashSet<>(load.acked());
                }
                Waits.until(() -> written.containsAll(acked), timeout);
                // Let corrections for the last writes arrive, so that a late duplicate would still be counted.
                Waits.sleep(3_000);
                int lost = (int) acked.stream().filter(id -> !written.contains(id)).count();
                return new Report(kills, acked.size(), lost, agent.corrections(), agent.duplicates(), agent.superseded(),
                    agent.samples(), timesToReady, Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }

    private static void collect(String key, Resource r, Set<String> written) {
        if (r != null && Values.toJava(r.getSpec()) instanceof Map<?, ?> spec && spec.get("seq") != null) {
            written.add(key + "#" + spec.get("seq"));
        }
    }
}
