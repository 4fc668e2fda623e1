package io.statesync.rest.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.rest.WatchPosition;

/**
 * {@code GET /api/v1/watch}: a Server-Sent Events stream of ADDED, MODIFIED, DELETED and BOOKMARK events.
 *
 * <p>Each event's SSE {@code id} is the position just after it, so a client resumes with the last id it saw
 * (as {@code resourceVersion}) and gets neither a gap nor a duplicate. Without {@code resourceVersion} the stream
 * starts with an ADDED event per current object. A position before the log start of statesync.resources or
 * older than this instance's change ring is answered 410 Gone, so the client re-lists; a position that is not a
 * token at all is a 400. A client more than {@code watch.max.queue} changes behind is sent an ERROR event and
 * disconnected rather than buffered without bound.
 */
public final class WatchHandler {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long HEARTBEAT_MS = 10_000;
    private static final int BATCH = 500;

    private final AppConfig config;
    private final ResourceHub hub;
    private final Supplier<long[]> logStartOffsets;
    private volatile boolean closed;

    public WatchHandler(AppConfig config, ResourceHub hub, Supplier<long[]> logStartOffsets) {
        this.config = config;
        this.hub = hub;
        this.logStartOffsets = logStartOffsets;
    }

    public void handle(Context ctx) throws IOException, InterruptedException {
        Predicate<Resource> filter = ResourceApi.filter(ctx.queryParam("kind"), ctx.queryParam("namespace"),
            ctx.queryParam("labelSelector"), ctx.queryParam("syncStatus"));
        if (!hub.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        String rv = ctx.queryParam("resourceVersion");
        long deadline = deadline(ctx.queryParam("timeoutSeconds"));
        Stream stream;
        if (rv == null || rv.isBlank()) {
            ResourceHub.Page snapshot = hub.list(filter, null, Integer.MAX_VALUE);
            stream = open(ctx, filter, snapshot.position(), hub.firstSeq());
            for (Resource r : snapshot.items()) {
                stream.send("ADDED", r, snapshot.position());
            }
        } else {
            // The cursor is taken before the position is checked, so an eviction in between shows up as evicted.
            long firstSeq = hub.firstSeq();
            stream = open(ctx, filter, position(rv), firstSeq);
        }
        stream.run(deadline);
    }

    private WatchPosition position(String rv) {
        WatchPosition from;
        try {
            from = WatchPosition.decode(rv);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("resourceVersion: " + e.getMessage());
        }
        String problem = hub.replayProblem(from);
        if (problem != null) {
            throw ApiError.gone(problem + "; list again and watch from the list's resourceVersion");
        }
        long[] logStart = logStartOffsets.get();
        for (int p = 0; p < logStart.length && p < from.partitions(); p++) {
            if (from.offset(p) < logStart[p]) {
                throw ApiError.gone("the position is older than the log start of partition " + p + " (offset "
                    + from.offset(p) + " < " + logStart[p] + "); list again and watch from the list's resourceVersion");
            }
        }
        return from;
    }

    private static long deadline(String timeoutSeconds) {
        if (timeoutSeconds == null || timeoutSeconds.isBlank()) {
            return Long.MAX_VALUE;
        }
        try {
            return System.currentTimeMillis() + Math.max(0, Long.parseLong(timeoutSeconds.trim())) * 1000;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("timeoutSeconds must be a whole number");
        }
    }

    private Stream open(Context ctx, Predicate<Resource> filter, WatchPosition from, long seq) throws IOException {
        ctx.status(200);
        ctx.res().setContentType("text/event-stream;charset=utf-8");
        ctx.res().setHeader("Cache-Control", "no-cache");
        ctx.res().setHeader("X-Accel-Buffering", "no");
        OutputStream out = ctx.res().getOutputStream();
        out.write(": statesync watch\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        return new Stream(out, filter, from, seq);
    }

    public void close() {
        closed = true;
    }

    /** One client's stream: a cursor into the hub's ring plus the client's position. */
    private final class Stream {
        private final OutputStream out;
        private final Predicate<Resource> filter;
        private WatchPosition position;
        private long seq;
        private long lastBookmark = System.currentTimeMillis();
        private long lastWrite = System.currentTimeMillis();
        /** A replay starts far behind the head by design; only lag that builds up after catching up counts. */
        private boolean caughtUp;

        Stream(OutputStream out, Predicate<Resource> filter, WatchPosition position, long seq) {
            this.out = out;
            this.filter = filter;
            this.position = position;
            this.seq = seq;
        }

        void run(long deadline) throws IOException, InterruptedException {
            long bookmarkMs = config.getLong(AppConfig.WATCH_BOOKMARK_INTERVAL_MS);
            int maxQueue = config.getInt(AppConfig.WATCH_MAX_QUEUE);
            while (!closed && System.currentTimeMillis() < deadline) {
                if (caughtUp && hub.backlog(seq) > maxQueue) {
                    error(429, "TooSlow", "this client fell more than watch.max.queue=" + maxQueue + " changes behind");
                    return;
                }
                ResourceHub.Batch batch = hub.await(seq, BATCH, Duration.ofMillis(Math.min(bookmarkMs, 1_000)));
                if (batch.evicted()) {
                    error(410, "Gone", "the changes after this position were evicted; list again");
                    return;
                }
                deliver(batch);
                long now = System.currentTimeMillis();
                if (now - lastBookmark >= bookmarkMs) {
                    bookmark();
                } else if (now - lastWrite >= HEARTBEAT_MS) {
                    write(": ping\n\n");
                }
            }
        }

        private void deliver(ResourceHub.Batch batch) throws IOException {
            for (ResourceHub.Change c : batch.changes()) {
                seq = c.seq() + 1;
                if (c.offset() < position.offset(c.partition())) {
                    continue;
                }
                position = position.advance(c.partition(), c.offset() + 1);
                if (filter.test(c.resource())) {
                    send(c.type().name(), c.resource(), position);
                }
            }
            seq = Math.max(seq, batch.nextSeq());
            if (batch.positionAfter() != null) {
                caughtUp = true;
                long[] merged = position.offsets();
                for (int p = 0; p < merged.length; p++) {
                    merged[p] = Math.max(merged[p], batch.positionAfter().offset(p));
                }
                position = new WatchPosition(merged);
            }
        }

        void send(String type, Resource r, WatchPosition at) throws IOException {
            ObjectNode event = JSON.objectNode().put("type", type);
            event.set("object", ResourceJson.toJson(r));
            write("event: " + type + "\nid: " + at.encode() + "\ndata: " + event + "\n\n");
        }

        private void bookmark() throws IOException {
            ObjectNode event = JSON.objectNode().put("type", "BOOKMARK");
            ObjectNode obj = event.putObject("object").put("apiVersion", ResourceJson.API_VERSION).put("kind", "Bookmark");
            obj.putObject("metadata").put("resourceVersion", position.encode());
            write("event: BOOKMARK\nid: " + position.encode() + "\ndata: " + event + "\n\n");
            lastBookmark = System.currentTimeMillis();
        }

        private void error(int code, String reason, String message) throws IOException {
            ObjectNode event = JSON.objectNode().put("type", "ERROR");
            event.putObject("object").put("code", code).put("reason", reason).put("message", message);
            write("event: ERROR\ndata: " + event + "\n\n");
        }

        private void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            lastWrite = System.currentTimeMillis();
        }
    }
}
