package io.statesync.rest;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An anonymous client floods {@code /ui/} with requests for long file names that no module ships. The UI paths need
 * no token, so whatever they kept per name would be heap anyone could fill; the heap after a full GC must stay put.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class UiFloodAbuseIT {

    private static final int REQUESTS = 30_000;
    private static final int NAME_CHARS = 3_000;
    private static final int CLIENTS = 4;
    private static final long MAX_GROWTH_BYTES = 10L * 1024 * 1024;

    private static RestTestApp app;

    @BeforeAll
    static void start() throws Exception {
        app = RestTestApp.start(RestTestApp.config("ui-flood", RestTestApp.prefix("ui-flood")));
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(app);
    }

    @Test
    void shouldKeepNothingPerMissingNameWhenAnAnonymousClientFloodsTheUiPaths() throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        flood(http, 500, "warm");
        long before = heapAfterFullGc();

        AtomicInteger notFound = flood(http, REQUESTS, "flood");

        long after = heapAfterFullGc();
        System.out.printf("UiFloodAbuseIT: %d anonymous requests for missing %d-char .js names: heap after full GC "
            + "%.1f MB before, %.1f MB after (growth %.1f MB)%n", REQUESTS, NAME_CHARS, before / 1e6, after / 1e6,
            (after - before) / 1e6);
        assertThat(notFound.get()).as("every missing name is a 404").isEqualTo(REQUESTS);
        assertThat(after - before).as("heap growth after %d anonymous misses", REQUESTS).isLessThan(MAX_GROWTH_BYTES);
        app.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** Sends {@code n} anonymous GETs for distinct missing names from {@link #CLIENTS} threads; counts the 404s. */
    private static AtomicInteger flood(HttpClient http, int n, String tag) throws Exception {
        AtomicInteger notFound = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        String padding = "a".repeat(NAME_CHARS);
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                runs.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        String name = (tag + "-" + i + "-" + padding).substring(0, NAME_CHARS - 3) + ".js";
                        HttpRequest request = HttpRequest.newBuilder(URI.create(app.base + "/ui/" + name))
                            .timeout(Duration.ofSeconds(30)).GET().build();
                        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 404) {
                            notFound.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return notFound;
    }

    /** The heap in use after a few full collections, so that garbage of the flood does not count as growth. */
    private static long heapAfterFullGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(200);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
