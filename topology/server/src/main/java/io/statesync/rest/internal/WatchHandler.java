package io.statesync.rest.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.rest.WatchCursor;
import io.statesync.rest.WatchFormat;
import io.statesync.rest.WatchPosition;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import org.eclipse.jetty.ee10.servlet.ServletChannel;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;

/**
 * {@code GET /api/v1/watch}: a Server-Sent Events stream of ADDED, MODIFIED, DELETED and BOOKMARK events.
 *
 * <p>Each event's SSE {@code id} is a {@link WatchCursor} just after it, so a client resumes with the last id it saw
 * (as {@code resourceVersion}, or the {@code Last-Event-ID} header) and gets neither a gap nor a duplicate, also when
 * it was cut off during the initial events. Without a position the stream starts with an ADDED event per current
 * object in key order, each id naming its key; a BOOKMARK annotated {@code k8s.io/initial-events-end} ends the
 * initial events of every watch. A position that cannot be replayed is answered 410 Gone, so the client re-lists, as
 * Kubernetes clients do: one before the log start of statesync.resources, older than this instance's change ring,
 * of another partition count, or one that does not decode at all.
 *
 * <p>As in Kubernetes, a filtered watch sees an object that stops matching as DELETED and one that starts matching
 * as ADDED.
 *
 * <p>Slow clients cost bounded memory and bounded server time. Nothing is queued per client: each stream is a
 * cursor into the resource view's shared change ring, and a client more than {@code watch.max.queue} changes behind is sent an
 * ERROR event and disconnected. A client that stops reading fills its socket and blocks the write; a watchdog
 * aborts any write that has made no progress for {@code watch.send.timeout.ms}, which closes the connection and
 * frees the server thread.
 */
public final class WatchHandler {

    public static final String CUTOFFS = "statesync.watch.cutoffs";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final long HEARTBEAT_MS = 10_000;
    private static final int BATCH = 500;
    private static final byte[] EVENT_END = "}\n\n".getBytes(StandardCharsets.UTF_8);
    /** The header an EventSource sends with the last id it received when it reconnects. */
    static final String LAST_EVENT_ID = "Last-Event-ID";
    /** The annotation of the BOOKMARK that ends the initial events, as in Kubernetes. */
    public static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
    private static final String RELIST = "; list again and watch from the list's resourceVersion";
    /** How long a cursor ahead of this instance's view waits for the view, as a list waits for the committed end. */
    private static final Duration AHEAD_WAIT = Duration.ofSeconds(5);

    private final AppConfig config;
    private final ResourceView view;
    private final RenderedJsonCache renderedJson;
    private final Supplier<long[]> logStartOffsets;
    private final long sendTimeoutNanos;
    private final Set<Stream> active = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "statesync-watch-watchdog");
        t.setDaemon(true);
        return t;
    });
    private final Counter tooSlow;
    private final Counter tooFarBehind;
    private volatile boolean closed;

    /** The server's own watch: Server-Sent Events whose ids are cursors; the object's JSON comes from the shared cache. */
    private final WatchFormat SSE = new WatchFormat() {
        @Override
        public String contentType() {
            return "text/event-stream;charset=utf-8";
        }

        @Override
        public byte[] opening() {
            return utf8(": statesync watch\n\n");
        }

        /** The object's JSON comes from the shared cache, so N watchers of one change render it once, not N times. */
        @Override
        public byte[] event(String type, StoredResource r, WatchCursor at) {
            byte[] head = utf8("event: " + type + "\nid: " + at.encode() + "\ndata: {\"type\":\"" + type + "\",\"object\":");
            byte[] json = renderedJson.json(r);
            byte[] out = java.util.Arrays.copyOf(head, head.length + json.length + EVENT_END.length);
            System.arraycopy(json, 0, out, head.length, json.length);
            System.arraycopy(EVENT_END, 0, out, head.length + json.length, EVENT_END.length);
            return out;
        }

        @Override
        public byte[] bookmark(WatchPosition at, boolean initialEnd) {
            ObjectNode event = JSON.objectNode().put("type", "BOOKMARK");
            ObjectNode obj = event.putObject("object").put("apiVersion", ResourceJson.API_VERSION).put("kind", "Bookmark");
            ObjectNode meta = obj.putObject("metadata").put("resourceVersion", at.encode());
            if (initialEnd) {
                meta.putObject("annotations").put(INITIAL_EVENTS_END, "true");
            }
            return utf8("event: BOOKMARK\nid: " + at.encode() + "\ndata: " + event + "\n\n");
        }

        @Override
        public byte[] error(int code, String reason, String message) {
            ObjectNode event = JSON.objectNode().put("type", "ERROR");
            event.putObject("object").put("code", code).put("reason", reason).put("message", message);
            return utf8("event: ERROR\ndata: " + event + "\n\n");
        }

        @Override
        public byte[] heartbeat() {
            return utf8(": ping\n\n");
        }
    };

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public WatchHandler(AppConfig config, ResourceView view, RenderedJsonCache renderedJson,
                        Supplier<long[]> logStartOffsets, MeterRegistry registry) {
        this.config = config;
        this.view = view;
        this.renderedJson = renderedJson;
        this.logStartOffsets = logStartOffsets;
        long sendTimeoutMs = config.getLong(AppConfig.WATCH_SEND_TIMEOUT_MS);
        this.sendTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(sendTimeoutMs);
        this.tooSlow = cutoffs(registry, "send-timeout");
        this.tooFarBehind = cutoffs(registry, "too-far-behind");
        long period = Math.max(10, sendTimeoutMs / 4);
        watchdog.scheduleWithFixedDelay(this::abortStuckWrites, period, period, TimeUnit.MILLISECONDS);
    }

    private static Counter cutoffs(MeterRegistry registry, String reason) {
        return Counter.builder(CUTOFFS).description("Watch clients disconnected for being slow, by reason")
            .tag("reason", reason).register(registry);
    }

    public void handle(Context ctx) throws IOException, InterruptedException {
        Predicate<StoredResource> filter = ResourceApi.filter(ctx.queryParam("kind"), ctx.queryParam("namespace"),
            ctx.queryParam("labelSelector"), ctx.queryParam("syncStatus"), ctx.queryParam("health"));
        long deadline = deadline(ctx.queryParam("timeoutSeconds"));
        WatchCursor from = cursor(ctx.queryParam("resourceVersion"), ctx.header(LAST_EVENT_ID));
        run(ctx, from, filter, deadline, SSE);
    }

    /**
     * Runs one watch on {@code ctx}'s response until {@code deadline} (epoch millis), the client leaves or the server
     * stops: from {@code from} (null: the current objects first), of the objects {@code filter} selects, written in
     * {@code format}. A position that cannot be replayed is thrown as a 410 {@link ApiError} before anything is written.
     */
    public void run(Context ctx, WatchCursor from, Predicate<StoredResource> filter, long deadline, WatchFormat format)
        throws IOException, InterruptedException {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        ResourceView.WatchStart start = start(from, filter);
        Stream stream = new Stream(ctx, filter, from == null ? new WatchPosition(start.position()) : from.position(), format);
        active.add(stream);
        try {
            stream.open();
            if (stream.initialEvents(from, start)) {
                stream.run(deadline);
            }
        } catch (IOException e) {
            // The client went away, or the watchdog cut it off; either way this stream is over.
        } finally {
            active.remove(stream);
        }
    }

    /**
     * Where the client resumes: {@code resourceVersion}, else the {@code Last-Event-ID} an EventSource sends when it
     * reconnects; null for neither. Both may be sent only when they agree: which one the client meant is not for the
     * server to guess, and either guess would silently repeat or skip events.
     */
    static WatchCursor cursor(String resourceVersion, String lastEventId) {
        String rv = resourceVersion == null || resourceVersion.isBlank() ? null : resourceVersion.trim();
        String last = lastEventId == null || lastEventId.isBlank() ? null : lastEventId.trim();
        if (rv != null && last != null && !rv.equals(last)) {
            throw ApiError.badRequest("resourceVersion and Last-Event-ID name different positions; send one of them");
        }
        String token = rv != null ? rv : last;
        if (token == null) {
            return null;
        }
        try {
            return WatchCursor.decode(token);
        } catch (IllegalArgumentException e) {
            // Kubernetes clients answer 410 by listing again, which is also the only way forward from a bad token.
            throw ApiError.gone((rv != null ? "resourceVersion: " : "Last-Event-ID: ") + e.getMessage() + RELIST);
        }
    }

    /**
     * The view's state to start from, checked against {@code from}. A cursor with a key is completed from the view's
     * current objects, which must then be at least as new as the cursor in every partition, or the keys the client
     * holds would be sent older than it has them: such a view (another instance's, behind this one) gets a moment to
     * catch up, and otherwise the client is told to retry.
     */
    private ResourceView.WatchStart start(WatchCursor from, Predicate<StoredResource> filter) throws InterruptedException {
        if (from == null) {
            return view.startWatch(null, filter, null, true);
        }
        long[] offsets = from.position().offsets();
        if (from.afterKey() != null) {
            view.awaitPosition(offsets, AHEAD_WAIT);
        }
        ResourceView.WatchStart start = view.startWatch(offsets, filter, from.afterKey(), from.afterKey() != null);
        if (start.replayProblem() != null) {
            throw ApiError.gone(start.replayProblem() + RELIST);
        }
        long[] logStart = logStartOffsets.get();
        for (int p = 0; p < logStart.length && p < offsets.length; p++) {
            if (offsets[p] < logStart[p]) {
                throw ApiError.gone("the position is older than the log start of partition " + p + " (offset "
                    + offsets[p] + " < " + logStart[p] + ")" + RELIST);
            }
        }
        if (from.afterKey() != null && !new WatchPosition(start.position()).covers(from.position())) {
            throw ApiError.unavailable("this instance's resource view has not reached the position yet", 1);
        }
        return start;
    }

    /** Runs on the watchdog thread: a write stuck longer than the send timeout means the client stopped reading. */
    private void abortStuckWrites() {
        long now = System.nanoTime();
        for (Stream s : active) {
            if (s.stuckSince(now) > sendTimeoutNanos) {
                s.abort();
            }
        }
    }

    /** {@code timeoutSeconds} as an epoch-millis deadline; none when absent. */
    public static long deadline(String timeoutSeconds) {
        if (timeoutSeconds == null || timeoutSeconds.isBlank()) {
            return Long.MAX_VALUE;
        }
        try {
            return System.currentTimeMillis() + Math.max(0, Long.parseLong(timeoutSeconds.trim())) * 1000;
        } catch (NumberFormatException e) {
            throw ApiError.badRequest("timeoutSeconds must be a whole number");
        }
    }

    public void close() {
        closed = true;
        watchdog.shutdownNow();
    }

    /** One client's stream: a cursor into the view's change ring plus the client's position. */
    private final class Stream {
        private final Context ctx;
        private final Predicate<StoredResource> filter;
        private final WatchFormat format;
        private OutputStream out;
        private ServletChannel channel;
        private WatchPosition position;
        private long seq;
        private long lastBookmark = System.currentTimeMillis();
        private long lastWrite = System.currentTimeMillis();
        /** System.nanoTime() when the write in progress began, 0 when none is; read by the watchdog. */
        private volatile long writingSince;
        private volatile boolean aborted;
        /** A replay starts far behind the head by design; only lag that builds up after catching up counts. */
        private boolean caughtUp;

        Stream(Context ctx, Predicate<StoredResource> filter, WatchPosition position, WatchFormat format) {
            this.ctx = ctx;
            this.format = format;
            this.filter = filter;
            this.position = position;
        }

        void open() throws IOException {
            ctx.status(200);
            ctx.res().setContentType(format.contentType());
            ctx.res().setHeader("Cache-Control", "no-cache");
            ctx.res().setHeader("X-Accel-Buffering", "no");
            out = ctx.res().getOutputStream();
            channel = ServletContextRequest.getServletContextRequest(ctx.req()).getServletChannel();
            byte[] opening = format.opening();
            if (opening.length > 0) {
                write(opening);
            } else {
                out.flush();
            }
        }

        /**
         * What the client lacks as of {@code start}, then the BOOKMARK that ends the initial events. From a cursor: the
         * ring's changes after its position to the keys the client holds, each with an id that keeps the cursor's key;
         * then, when the cursor has a key, the current objects after it as ADDED, each with an id naming its own key.
         * Without a cursor only the current objects. False when the ring lost the changes on the way (410 sent).
         */
        boolean initialEvents(WatchCursor from, ResourceView.WatchStart start) throws IOException, InterruptedException {
            seq = start.firstSeq();
            while (from != null && seq < start.nextSeq()) {
                ResourceView.Batch batch = view.await(seq, (int) Math.min(BATCH, start.nextSeq() - seq), Duration.ZERO);
                if (batch.evicted()) {
                    error(410, "Gone", "the changes after this position were evicted; list again");
                    return false;
                }
                for (ResourceView.Change c : batch.changes()) {
                    deliver(c, from.afterKey());
                }
                seq = Math.max(seq, batch.nextSeq());
            }
            seq = start.nextSeq();
            position = position.merge(start.position());
            for (StoredResource r : start.items()) {
                send("ADDED", r, new WatchCursor(position, r.key()));
            }
            bookmark(true);
            return true;
        }

        void run(long deadline) throws IOException, InterruptedException {
            long bookmarkMs = config.getLong(AppConfig.WATCH_BOOKMARK_INTERVAL_MS);
            int maxQueue = config.getInt(AppConfig.WATCH_MAX_QUEUE);
            while (!closed && System.currentTimeMillis() < deadline) {
                if (caughtUp && view.backlog(seq) > maxQueue) {
                    tooFarBehind.increment();
                    error(429, "TooSlow", "this client fell more than watch.max.queue=" + maxQueue + " changes behind");
                    return;
                }
                ResourceView.Batch batch = view.await(seq, BATCH, Duration.ofMillis(Math.min(bookmarkMs, 1_000)));
                if (batch.evicted()) {
                    error(410, "Gone", "the changes after this position were evicted; list again");
                    return;
                }
                deliver(batch);
                long now = System.currentTimeMillis();
                if (now - lastBookmark >= bookmarkMs) {
                    bookmark(false);
                } else if (now - lastWrite >= HEARTBEAT_MS && format.heartbeat() != null) {
                    write(format.heartbeat());
                }
            }
        }

        private void deliver(ResourceView.Batch batch) throws IOException {
            for (ResourceView.Change c : batch.changes()) {
                deliver(c, null);
            }
            seq = Math.max(seq, batch.nextSeq());
            if (batch.positionAfter() != null) {
                caughtUp = true;
                position = position.merge(batch.positionAfter());
            }
        }

        /**
         * Sends {@code c} when the client has not seen it, holds its key (every key when {@code afterKey} is null) and
         * the filter says so; the position moves past it in any case, since the client's keys did not change there.
         */
        private void deliver(ResourceView.Change c, String afterKey) throws IOException {
            seq = c.seq() + 1;
            if (c.offset() < position.offset(c.partition())) {
                return;
            }
            position = position.advance(c.partition(), c.offset() + 1);
            if (afterKey != null && c.key().compareTo(afterKey) > 0) {
                return;
            }
            String type = typeFor(c);
            if (type != null) {
                send(type, type.equals("DELETED") ? c.previous() : c.resource(), new WatchCursor(position, afterKey));
            }
        }

        /**
         * The event this client sees, judged on the object before and after as Kubernetes does: entering the filter
         * is ADDED, leaving it is DELETED (with the last object the client saw), null when it never matched.
         */
        private String typeFor(ResourceView.Change c) {
            boolean before = c.previous() != null && filter.test(c.previous());
            boolean after = c.type() != ResourceView.Type.DELETED && filter.test(c.resource());
            if (before && after) {
                return "MODIFIED";
            }
            return after ? "ADDED" : before ? "DELETED" : null;
        }

        void send(String type, StoredResource r, WatchCursor at) throws IOException {
            write(format.event(type, r, at));
        }

        /** A BOOKMARK at the current position; {@code initialEnd} marks the end of the initial events, as Kubernetes does. */
        private void bookmark(boolean initialEnd) throws IOException {
            byte[] bookmark = format.bookmark(position, initialEnd);
            if (bookmark != null) {
                write(bookmark);
            }
            lastBookmark = System.currentTimeMillis();
        }

        private void error(int code, String reason, String message) throws IOException {
            write(format.error(code, reason, message));
        }

        private void write(byte[]... parts) throws IOException {
            writingSince = System.nanoTime();
            try {
                for (byte[] part : parts) {
                    out.write(part);
                }
                out.flush();
            } finally {
                writingSince = 0;
            }
            if (aborted) {
                throw new IOException("cut off: the client accepted no data for watch.send.timeout.ms");
            }
            lastWrite = System.currentTimeMillis();
        }

        long stuckSince(long now) {
            long since = writingSince;
            return since == 0 ? 0 : now - since;
        }

        /** Closes the connection under the blocked write, which then fails and frees this stream's thread. */
        void abort() {
            // Re-checked here: a write that just completed must not lose its connection, which may serve another request.
            if (aborted || writingSince == 0) {
                return;
            }
            aborted = true;
            tooSlow.increment();
            TimeoutException cause = new TimeoutException(
                "watch client accepted no data for " + TimeUnit.NANOSECONDS.toMillis(sendTimeoutNanos) + " ms");
            // Closing the end point fails the blocked write, as Jetty 11's channel abort did. Jetty 12's channel abort
            // only marks the response failed, and leaves the request in a state Javalin cannot finish without an error.
            channel.getEndPoint().close(cause);
        }
    }
}
