package io.statesync.it;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.agent.ConflictRetry;
import io.statesync.agent.ResourceRef;
import io.statesync.agent.StatesyncResourceClient;
import io.statesync.app.StatesyncApp;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two writers race read-modify-writes of one resource through a real instance's REST API: each adds one to a counter
 * twenty times with {@link StatesyncResourceClient#update}. The conditional writes lose races, and the retries on
 * conflict redo the change on the newer object, so the counter ends at forty: no update is lost.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ConflictRetryIT {

    private static final ResourceRef COUNTER = new ResourceRef("Counter", "default", "shared");
    private static final int PER_WRITER = 20;
    /** Room for a writer that loses many races in a row; each loss means the other writer won one. */
    private static final ConflictRetry.Backoff PATIENT = new ConflictRetry.Backoff(50, Duration.ofMillis(5), 1.2, 1.0,
        Duration.ofMillis(200));

    @TempDir
    Path stateDir;

    @Test
    void shouldLoseNoIncrementWhenTwoWritersRaceReadModifyWritesOnOneResource(EmbeddedCluster cluster) throws Exception {
        try (StatesyncApp app = new StatesyncApp(InstanceConfigs.onCluster(cluster, stateDir, "retry"))) {
            app.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> app.restServer().readinessProblems().isEmpty());
            StatesyncResourceClient client = new StatesyncResourceClient(URI.create("http://127.0.0.1:" + app.httpPort()),
                null);
            ObjectNode created = new ObjectMapper().createObjectNode().put("kind", "Counter");
            created.putObject("spec").put("count", 0);
            client.put(COUNTER, created);

            AtomicInteger changes = new AtomicInteger();
            race(client, changes);

            ObjectNode last = client.get(COUNTER);
            assertThat(last.path("spec").path("count").asLong()).isEqualTo(2L * PER_WRITER);
            assertThat(changes.get()).as("the writers lost races and redid their change").isGreaterThan(2 * PER_WRITER);
        }
    }

    /**
     * Both writers run their increments at once. Each change waits until the other writer has read too, so that most
     * rounds have two reads of one version and one of the two writes loses.
     */
    private static void race(StatesyncResourceClient client, AtomicInteger changes) throws Exception {
        CyclicBarrier bothRead = new CyclicBarrier(2);
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                done.add(writers.submit(() -> {
                    for (int i = 0; i < PER_WRITER; i++) {
                        client.update(COUNTER, PATIENT, o -> {
                            changes.incrementAndGet();
                            meet(bothRead);
                            ObjectNode spec = o.withObject("/spec");
                            spec.put("count", spec.path("count").asLong() + 1);
                            return o;
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            writers.shutdownNow();
        }
    }

    /** Waits briefly for the other writer; once it has finished its increments nobody comes, and that is fine. */
    private static void meet(CyclicBarrier barrier) {
        try {
            barrier.await(200, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            barrier.reset();
        }
    }

}
