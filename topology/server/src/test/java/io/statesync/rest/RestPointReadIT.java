package io.statesync.rest;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.rest.internal.ResourceApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static io.statesync.rest.RestTestApp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Point reads from the reading instance's own resource view, over real HTTP against two instances of one
 * application: no forward once the view has the object, and never a version older than the reader needs.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class RestPointReadIT {

    private static final int KEYS = 20;
    private static RestTestApp a;
    private static RestTestApp b;

    @BeforeAll
    static void start() throws Exception {
        Map<String, Object> configA = RestTestApp.config("rest-point-read", RestTestApp.prefix("rest-point-read"));
        Map<String, Object> configB = new HashMap<>(configA);
        configB.put(AppConfig.STATE_DIR, RestTestApp.tempDir().toString());
        a = RestTestApp.start(configA);
        b = RestTestApp.start(configB);
        a.awaitReady();
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
        if (a != null) {
            a.close();
        }
    }

    @Test
    void shouldServeEveryKeyFromTheReadingInstancesViewWithoutForwarding() {
        for (int k = 0; k < KEYS; k++) {
            assertThat(a.put(path("viewed-" + k), body(Map.of("k", k), Map.of())).statusCode()).isIn(200, 201);
        }
        String self = "127.0.0.1:" + b.app.httpPort();
        for (int k = 0; k < KEYS; k++) {
            String p = path("viewed-" + k);
            await().atMost(Duration.ofSeconds(30)).until(() -> "view".equals(b.get(p).headers()
                .firstValue(ResourceApi.SOURCE_HEADER).orElse("")));
            HttpResponse<String> r = b.get(p);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Statesync-Served-By")).as("key %d is answered by b itself", k).hasValue(self);
            assertThat(json(r).path("spec").path("k").asInt()).isEqualTo(k);
            assertThat(r.headers().firstValue("ETag")).hasValue("\"" + json(r).path("metadata").path("resourceVersion").asText() + "\"");
        }
    }

    @Test
    void shouldNeverAnswerOlderThanTheVersionAWriteWasAnsweredWith() {
        String p = path("ryw");
        for (int i = 0; i < 25; i++) {
            HttpResponse<String> put = a.put(p, body(Map.of("i", i), Map.of()));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
            long written = version(put);
            HttpResponse<String> sameInstance = a.get(p);
            HttpResponse<String> otherInstance = b.get(p + "?resourceVersion=" + written);
            HttpResponse<String> conditional = b.send("GET", p, null, null, "If-None-Match", "\"" + written + "\"");
            assertThat(version(sameInstance)).as("read on the writing instance, round %d", i).isGreaterThanOrEqualTo(written);
            assertThat(json(sameInstance).path("spec").path("i").asInt()).isEqualTo(i);
            assertThat(version(otherInstance)).as("read with resourceVersion, round %d", i).isGreaterThanOrEqualTo(written);
            assertThat(json(otherInstance).path("spec").path("i").asInt()).isEqualTo(i);
            assertThat(conditional.statusCode()).as("If-None-Match, round %d", i).isIn(200, 304);
            assertThat(version(conditional)).isGreaterThanOrEqualTo(written);
        }
    }

    @Test
    void shouldAnswerNotModifiedToIfNoneMatchWithTheCurrentVersionFromEitherSource() {
        String p = path("not-modified");
        long v = version(a.put(p, body(Map.of("x", 1), Map.of())));
        await().atMost(Duration.ofSeconds(30)).until(() -> "view".equals(b.get(p + "?resourceVersion=" + v).headers()
            .firstValue(ResourceApi.SOURCE_HEADER).orElse("")));
        long current = version(b.get(p));
        for (String query : new String[] {"", "?consistency=owner"}) {
            HttpResponse<String> r = b.send("GET", p + query, null, null, "If-None-Match", "\"" + current + "\"");
            assertThat(r.statusCode()).as(query).isEqualTo(304);
            assertThat(r.body()).isEmpty();
        }
        assertThat(b.send("GET", p, null, null, "If-None-Match", "\"" + (current - 1) + "\"").statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer400ForAResourceVersionThatIsNotOneAndAnUnknownConsistency() {
        RestApiIT.assertError(b.get(path("x") + "?resourceVersion=abc"), 400);
        RestApiIT.assertError(b.get(path("x") + "?consistency=eventual"), 400);
    }

    @Test
    void shouldAnswer404FromTheViewForAnAbsentKey() {
        HttpResponse<String> r = b.get(path("never-written"));
        RestApiIT.assertError(r, 404);
        assertThat(r.headers().firstValue(ResourceApi.SOURCE_HEADER)).hasValue("view");
    }

    private static long version(HttpResponse<String> r) {
        String etag = r.headers().firstValue("ETag").orElseThrow(() -> new AssertionError("no ETag: " + r.statusCode()));
        return Long.parseLong(etag.replace("\"", ""));
    }

    private static String path(String name) {
        return "/api/v1/resources/WebApp/default/" + name;
    }
}
