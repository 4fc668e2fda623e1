package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.micrometer.core.instrument.Counter;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.Reason;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-kind token bucket on corrections, on the real topology with the driver's wall clock. */
class CorrectionRateLimitTopologyTest {

    private static final Map<String, Object> TWO_PER_SECOND = Map.of(AppConfig.CORRECTIONS_RATE_PER_KIND, 2.0,
        AppConfig.CORRECTIONS_BURST_PER_KIND, 2);
    private static final String[] NAMES = {"a", "b", "c", "d", "e"};

    @TempDir
    Path stateDir;

    private static double delayed(TopologyFixture f, String kind) {
        Counter c = f.metrics.registry().find("statesync_corrections_delayed_total").tag("kind", kind).counter();
        return c == null ? 0 : c.count();
    }

    private static void create(TopologyFixture f, String kind, String... names) {
        for (String name : names) {
            f.putDesired(TopologyFixture.desiredState(kind + "/default/" + name, Map.of("replicas", 1L)));
        }
    }

    private static List<String> kinds(List<Correction> cs) {
        return cs.stream().map(Correction::getKind).toList();
    }

    /** Advances the wall clock by {@code millis} in steps of the fixture's timer period, so that every timer runs. */
    private static void advanceInSteps(TopologyFixture f, long millis) {
        for (long t = 0; t < millis; t += 100) {
            f.advance(Duration.ofMillis(100));
        }
    }

    @Test
    void shouldIssueTheBurstAtOnceAndTheRestAsTokensAccrue() {
        try (TopologyFixture f = new TopologyFixture(stateDir, TWO_PER_SECOND)) {
            create(f, "WebApp", NAMES);
            assertThat(f.drainCorrections()).extracting(Correction::getName).containsExactly("a", "b");

            advanceInSteps(f, 500);
            assertThat(f.drainCorrections()).as("one token after half a second").hasSize(1);
            advanceInSteps(f, 500);
            assertThat(f.drainCorrections()).hasSize(1);
            advanceInSteps(f, 500);
            assertThat(f.drainCorrections()).as("the fifth key's token").hasSize(1);
            advanceInSteps(f, 2_000);
            assertThat(f.drainCorrections()).as("nothing left to pace").isEmpty();
        }
    }

    @Test
    void shouldNotDelayAnotherKindWhenOneKindsBucketIsEmpty() {
        try (TopologyFixture f = new TopologyFixture(stateDir, TWO_PER_SECOND)) {
            create(f, "WebApp", NAMES);
            create(f, "Database", "x", "y");
            assertThat(kinds(f.drainCorrections())).containsExactly("WebApp", "WebApp", "Database", "Database");
            assertThat(delayed(f, "Database")).isZero();
        }
    }

    @Test
    void shouldCountEachDelayAndShowTheWaitInTheStatus() {
        try (TopologyFixture f = new TopologyFixture(stateDir, TWO_PER_SECOND)) {
            create(f, "WebApp", NAMES);
            assertThat(delayed(f, "WebApp")).as("c, d and e held back").isEqualTo(3.0);

            List<Resource> published = f.drainResources();
            Resource waiting = published.stream().filter(r -> r.getMetadata().getName().equals("e")).reduce((x, y) -> y)
                .orElseThrow();
            assertThat(waiting.getStatus().getSyncStatus()).isEqualTo(SyncStatus.OutOfSync);
            assertThat(waiting.getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Synced");
                assertThat(c.getReason()).isEqualTo("RateLimited");
            });

            advanceInSteps(f, 500);
            assertThat(delayed(f, "WebApp")).as("d and e wait again for the next token").isEqualTo(5.0);
        }
    }

    @Test
    void shouldDelayNothingUnderTheDefaultConfiguration() {
        // More keys than the default burst holds, so that a limiting default rate would show.
        int keys = (Integer) AppConfig.configDef().defaultValues().get(AppConfig.CORRECTIONS_BURST_PER_KIND) + 5;
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of())) {
            create(f, "WebApp", IntStream.range(0, keys).mapToObj(i -> "k" + i).toArray(String[]::new));
            assertThat(f.drainCorrections()).hasSize(keys);
            assertThat(delayed(f, "WebApp")).isZero();
        }
    }

    @Test
    void shouldPaceARetryToo() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.CORRECTIONS_RATE_PER_KIND, 0.5,
                AppConfig.CORRECTIONS_BURST_PER_KIND, 1))) {
            f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setCorrectionDeadlineMs(500L)
                .setBackoffBaseMs(100L).setBackoffCapMs(100L).build());
            create(f, "WebApp", "a");
            assertThat(f.drainCorrections()).hasSize(1);

            advanceInSteps(f, 1_800);
            assertThat(f.drainCorrections()).as("the retry is due but its token is not").isEmpty();
            assertThat(delayed(f, "WebApp")).isPositive();

            advanceInSteps(f, 400);
            assertThat(f.drainCorrections()).extracting(Correction::getReason).containsExactly(Reason.Retry);
        }
    }

    @Test
    void shouldPaceDeleteCorrectionsToo() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.CORRECTIONS_RATE_PER_KIND, 1.0,
                AppConfig.CORRECTIONS_BURST_PER_KIND, 1))) {
            create(f, "WebApp", "a");
            Correction c = f.drainCorrections().get(0);
            f.observe("WebApp/default/a", c.getUid(), 1, Map.of("replicas", 1L), c.getCommandId());
            f.deleteDesired("WebApp/default/a");
            assertThat(f.drainCorrections()).as("the create used the only token").isEmpty();
            assertThat(delayed(f, "WebApp")).isEqualTo(1.0);

            advanceInSteps(f, 1_000);
            assertThat(f.drainCorrections()).extracting(x -> x.getAction().name()).containsExactly("DELETE");
        }
    }

    /**
     * Admission, observation, the dependents index and collect commands are four processors of one task; each of them
     * causes a correction here at one wall-clock instant, and together they may issue no more than the one bucket holds.
     */
    @Test
    void shouldDrawTheCorrectionsOfEveryInputOfATaskFromOneBucketPerKind() {
        try (TopologyFixture f = new TopologyFixture(stateDir, Map.of(AppConfig.CORRECTIONS_RATE_PER_KIND, 1.0,
                AppConfig.CORRECTIONS_BURST_PER_KIND, 1, AppConfig.RECONCILE_COALESCE_ENABLED, false))) {
            create(f, "WebApp", "first");
            String owner = "WebApp/default/owner";
            String dependent = "WebApp/default/dependent";
            create(f, "WebApp", "owner");
            String ownerUid = f.drainResources().stream().filter(r -> r.getMetadata().getName().equals("owner"))
                .reduce((x, y) -> y).orElseThrow().getMetadata().getUid();
            // Admission publishes the dependent; the dependents index hears of it and reconciles the waiting owner.
            DesiredState d = TopologyFixture.desiredState(dependent, Map.of("replicas", 1L));
            d.setOwnerReferences(List.of(new OwnerReference("statesync.io/v1", "WebApp", "owner", ownerUid, true, true)));
            f.putDesired(d);
            String dependentUid = f.drainResources().stream().filter(r -> r.getMetadata().getName().equals("dependent"))
                .reduce((x, y) -> y).orElseThrow().getMetadata().getUid();
            // An observation that differs from the spec asks for a correction of the waiting dependent.
            f.observe(dependent, dependentUid, 1, Map.of("replicas", 3L), null);
            // A collect command deletes the dependent, which the agent reports present.
            var collect = f.driver.createInputTopic(f.topics.collect(), new StringSerializer(), new ByteArraySerializer());
            collect.pipeInput(dependent, String.join("\t", "DELETE", "Background", owner, ownerUid)
                .getBytes(StandardCharsets.UTF_8));

            assertThat(f.drainCorrections()).as("one bucket of one token for the whole task")
                .extracting(Correction::getName).containsExactly("first");
            assertThat(delayed(f, "WebApp")).as("the owner, the dependent's update and its delete each held back")
                .isGreaterThanOrEqualTo(4.0);
        }
    }
}
