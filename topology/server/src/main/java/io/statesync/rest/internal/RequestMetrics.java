package io.statesync.rest.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Times every request in {@code statesync_http_server_requests_seconds}, tagged with method, route template and status. */
public final class RequestMetrics {

    public static final String TIMER = "statesync.http.server.requests";

    private final MeterRegistry registry;
    private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();

    public RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Javalin's request logger: called once a request is answered, with its time in milliseconds. */
    public void record(Context ctx, Float ms) {
        String route;
        try {
            Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
            route = endpoint == null ? "" : endpoint.path;
        } catch (RuntimeException e) {
            route = "";
        }
        String method = ctx.method().name();
        String tagRoute = route == null || route.isEmpty() ? "unmatched" : route;
        int status = ctx.statusCode();
        // Looked up in our own map: Micrometer's builder and register() cost more than the timing itself per request.
        timers.computeIfAbsent(new TimerKey(method, tagRoute, status), k -> Timer.builder(TIMER)
                .description("REST requests by method, route template and status")
                .tag("method", k.method()).tag("route", k.route()).tag("status", String.valueOf(k.status())).register(registry))
            .record((long) (ms * 1_000_000), TimeUnit.NANOSECONDS);
    }

    private record TimerKey(String method, String route, int status) {
    }
}
