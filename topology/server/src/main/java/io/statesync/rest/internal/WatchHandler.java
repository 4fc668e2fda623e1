package io.statesync.rest.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
import io.statesync.rest.WatchFormat;
import io.statesync.server.ServerConfig;
import io.statesync.view.ResourceView;
import io.statesync.view.StoredResource;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;
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
    /** How often a waiting stream is woken to check its deadline, bookmark and heartbeat. */
    private static final long TICK_MS = 1_000;
    /** Batches a stream writes before it lets the other streams have the thread. */
    private static final int BATCHES_PER_TURN = 8;
    private static final byte[] EVENT_END = "}\n\n".getBytes(StandardCharsets.UTF_8);
    /** The header an EventSource sends with the last id it received when it reconnects. */
    static final String LAST_EVENT_ID = "Last-Event-ID";
    /** The annotation of the BOOKMARK that ends the initial events, as in Kubernetes. */
    public static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
    private static final String RELIST = "; list again and watch from the list's resourceVersion";
    /** How long a cursor ahead of this instance's view waits for the view, as a list waits for the committed end. */
    private static final Duration AHEAD_WAIT = Duration.ofSeconds(5);

    private final AppConfig config;
    /** The bytes of current objects one page of a watch's initial events holds (list.max.bytes). */
    private final long pageBytes;
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
    private final WatchLimits limits;
    private final WatchTimeout timeouts;
    /** The threads that write events; a stream holds one only while it has events to write. */
    private final ExecutorService writers;
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
        this.pageBytes = config.getLong(ServerConfig.LIST_MAX_BYTES);
        this.view = view;
        this.renderedJson = renderedJson;
        this.logStartOffsets = logStartOffsets;
        long sendTimeoutMs = config.getLong(ServerConfig.WATCH_SEND_TIMEOUT_MS);
        this.sendTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(sendTimeoutMs);
        this.tooSlow = cutoffs(registry, "send-timeout");
        this.tooFarBehind = cutoffs(registry, "too-far-behind");
        this.timeouts = WatchTimeout.withMinimum(config.getLong(ServerConfig.WATCH_MIN_REQUEST_TIMEOUT_MS));
        this.limits = new WatchLimits(config.getInt(ServerConfig.WATCH_MAX_OPEN), config.getInt(ServerConfig.WATCH_MAX_OPEN_PER_TOKEN));
        this.writers = Executors.newFixedThreadPool(config.getInt(ServerConfig.WATCH_THREADS), new ThreadFactory() {
            private final AtomicInteger n = new AtomicInteger();

            @Override
            public Thread newThread(Runnable r) {
                Thread t = new Thread(r, "statesync-watch-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            }
        });
        long period = Math.max(10, sendTimeoutMs / 4);
        watchdog.scheduleWithFixedDelay(this::abortStuckWrites, period, period, TimeUnit.MILLISECONDS);
        long tickMs = Math.min(config.getLong(ServerConfig.WATCH_BOOKMARK_INTERVAL_MS), TICK_MS);
        watchdog.scheduleWithFixedDelay(this::tick, tickMs, tickMs, TimeUnit.MILLISECONDS);
        view.onChange(this::viewChanged);
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
     * {@code format}. A position that cannot be replayed is thrown as a 410 {@link ApiError}, and a watch past
     * {@code watch.max.open} or {@code watch.max.open.per.token} as a 429, before anything is written.
     *
     * <p>The request then goes asynchronous and this returns: the stream is driven by the watch threads only while it
     * has something to write, and holds no thread while it waits for changes.
     */
    public void run(Context ctx, WatchCursor from, Predicate<StoredResource> filter, long deadline, WatchFormat format)
        throws InterruptedException {
        if (!view.ready()) {
            throw ApiError.unavailable("the resource view is still loading", 1);
        }
        WatchLimits.Permit permit = limits.acquire(ctx.header("Authorization"), ctx.ip());
        ResourceView.WatchStart start;
        try {
            start = start(from, filter);
        } catch (RuntimeException | InterruptedException e) {
            permit.close();
            throw e;
        }
        Stream stream = new Stream(ctx, filter, from == null ? start.position() : from.position(), format,
            new Opening(from, start, deadline), permit);
        active.add(stream);
        if (closed) {
            // Opened while the handler closes: ended now, since no sweep of close() may come after it.
            stream.finish();
        }
        // Javalin calls this once the request is asynchronous, so the stream never writes from two threads at once.
        ctx.future(() -> {
            stream.launch();
            return stream.done;
        });
    }

    /** The 429 a watch of {@code ctx}'s client would get now, without opening one. */
    public void refuseIfFull(Context ctx) {
        limits.refuseIfFull(ctx.header("Authorization"), ctx.ip());
    }

    /** The watches open now. */
    public int open() {
        return limits.open();
    }

    /** Wakes every waiting stream that has changes to read; on the view's reader thread, so it only hands work off. */
    private void viewChanged() {
        long next = view.nextSeq();
        for (Stream s : active) {
            if (s.seq < next || closed) {
                s.wake();
            }
        }
    }

    /** Wakes every waiting stream so that it checks its deadline, bookmark and heartbeat. */
    private void tick() {
        for (Stream s : active) {
            s.wake();
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
            return view.startWatch(null, filter, null, true, pageBytes);
        }
        long[] offsets = from.position().offsets();
        if (from.afterKey() != null) {
            view.awaitPosition(from.position(), AHEAD_WAIT);
        }
        ResourceView.WatchStart start = view.startWatch(from.position(), filter, from.afterKey(), from.afterKey() != null,
            pageBytes);
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
        if (from.afterKey() != null && !start.position().covers(from.position())) {
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

    /**
     * A watch's {@code timeoutSeconds} as an epoch-millis deadline from now: as given, or a random one between
     * watch.min.request.timeout.ms and twice that when absent or 0; 400 when not a whole number.
     */
    public long deadline(String timeoutSeconds) {
        return timeouts.deadline(timeoutSeconds, System.currentTimeMillis());
    }

    public void close() {
        closed = true;
        tick();
        watchdog.shutdownNow();
        writers.shutdown();
        try {
            writers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writers.shutdownNow();
        // Streams no turn ended (opened while closing, or held by a write past the wait) end here, while the HTTP
        // server still runs: ended after it stopped, they would hand it requests that no longer exist.
        for (Stream s : active) {
            s.finish();
        }
    }

    /** Where a stream starts: the client's cursor, the view's state taken for it, and its deadline. */
    private record Opening(WatchCursor from, ResourceView.WatchStart start, long deadline) {
    }

    /**
     * One client's stream: a cursor into the view's change ring plus the client's position. It runs in turns on the
     * watch threads ({@link #wake}); between turns it holds no thread, only its connection.
     */
    private final class Stream {
        private final Context ctx;
        private final Predicate<StoredResource> filter;
        private final WatchFormat format;
        private final WatchLimits.Permit permit;
        private final long deadline;
        /** Completed when the stream ends; Javalin then completes the asynchronous request. */
        final CompletableFuture<Void> done = new CompletableFuture<>();
        /**
         * Set while a turn is queued or running, so that one stream never runs on two threads; set from the start,
         * until {@link #launch}, so that nothing wakes the stream before its request is asynchronous.
         */
        private final AtomicBoolean scheduled = new AtomicBoolean(true);
        private Opening opening;
        private OutputStream out;
        private ServletChannel channel;
        /** The connection's idle timeout before the watch, restored when it ends. */
        private long idleTimeoutMs;
        private WatchPosition position;
        /** The next change this stream reads; read by the view's reader thread to decide whom to wake. */
        private volatile long seq;
        private long lastBookmark = System.currentTimeMillis();
        private long lastWrite = System.currentTimeMillis();
        /** System.nanoTime() when the write in progress began, 0 when none is; read by the watchdog. */
        private volatile long writingSince;
        private volatile boolean aborted;
        /** A replay starts far behind the head by design; only lag that builds up after catching up counts. */
        private boolean caughtUp;

        Stream(Context ctx, Predicate<StoredResource> filter, WatchPosition position, WatchFormat format, Opening opening,
               WatchLimits.Permit permit) {
            this.ctx = ctx;
            this.format = format;
            this.filter = filter;
            this.position = position;
            this.opening = opening;
            this.permit = permit;
            this.deadline = opening.deadline();
            this.seq = opening.start().nextSeq();
        }

        /** The first turn, once the request is asynchronous. */
        void launch() {
            try {
                writers.execute(this::turn);
            } catch (RejectedExecutionException stopping) {
                finish();
            }
        }

        /** Queues a turn unless one is queued or running already. */
        void wake() {
            if (done.isDone() || !scheduled.compareAndSet(false, true)) {
                return;
            }
            try {
                writers.execute(this::turn);
            } catch (RejectedExecutionException stopping) {
                finish();
            }
        }

        /** Writes what there is to write, then lets go of the thread; wakes itself again when more arrived meanwhile. */
        private void turn() {
            boolean more;
            try {
                more = opening != null ? begin() : step();
            } catch (IOException | RuntimeException e) {
                // The client went away, the watchdog cut it off, or the request ended under it: the stream is over.
                more = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                more = false;
            }
            if (!more) {
                finish();
                return;
            }
            scheduled.set(false);
            if (view.nextSeq() > seq) {
                wake();
            }
        }

        private boolean begin() throws IOException, InterruptedException {
            Opening o = opening;
            opening = null;
            open();
            return initialEvents(o.from(), o.start());
        }

        /** Ends the stream once: its permit goes back and the request completes. */
        private void finish() {
            if (active.remove(this)) {
                if (channel != null && idleTimeoutMs > 0) {
                    channel.getEndPoint().setIdleTimeout(idleTimeoutMs);
                }
                permit.close();
                done.complete(null);
            }
        }

        void open() throws IOException {
            ctx.status(200);
            ctx.res().setStatus(200);
            ctx.res().setContentType(format.contentType());
            ctx.res().setHeader("Cache-Control", "no-cache");
            ctx.res().setHeader("X-Accel-Buffering", "no");
            out = ctx.res().getOutputStream();
            channel = ServletContextRequest.getServletContextRequest(ctx.req()).getServletChannel();
            // An asynchronous request is failed by the connection's idle timeout, which a request on a thread is not: a
            // quiet watch without heartbeats (the Kubernetes format) would end after it. A watch's connection carries
            // only the watch, and a stuck write has its own watchdog; the timeout comes back when the watch ends.
            idleTimeoutMs = channel.getEndPoint().getIdleTimeout();
            channel.getEndPoint().setIdleTimeout(0);
            byte[] bytes = format.opening();
            if (bytes.length > 0) {
                write(bytes);
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
            while (true) {
                if (!replayThenSend(from, start)) {
                    return false;
                }
                if (start.nextKey() == null) {
                    break;
                }
                // The current objects come a list.max.bytes page at a time, each resumed as a cursor with a key would
                // be: the ring's changes since the last page to the keys already sent, then the next page.
                from = new WatchCursor(position, start.nextKey());
                start = view.startWatch(position, filter, from.afterKey(), true, pageBytes);
                if (start.replayProblem() != null) {
                    error(410, "Gone", "the changes during the initial events were evicted; list again");
                    return false;
                }
            }
            bookmark(true);
            return true;
        }

        /** One page of initial events: the ring's changes after {@code from} to the keys it holds, then the objects. */
        private boolean replayThenSend(WatchCursor from, ResourceView.WatchStart start) throws IOException,
                InterruptedException {
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
            return true;
        }

        /**
         * One turn: the changes that are there (a few batches at most, so that other streams get the thread), then a
         * bookmark or heartbeat when due. False when the stream is over.
         */
        private boolean step() throws IOException, InterruptedException {
            if (closed || done.isDone() || System.currentTimeMillis() >= deadline) {
                return false;
            }
            long bookmarkMs = config.getLong(ServerConfig.WATCH_BOOKMARK_INTERVAL_MS);
            int maxQueue = config.getInt(ServerConfig.WATCH_MAX_QUEUE);
            for (int i = 0; i < BATCHES_PER_TURN && view.nextSeq() > seq; i++) {
                if (caughtUp && view.backlog(seq) > maxQueue) {
                    tooFarBehind.increment();
                    error(429, "TooSlow", "this client fell more than watch.max.queue=" + maxQueue + " changes behind");
                    return false;
                }
                ResourceView.Batch batch = view.await(seq, BATCH, Duration.ZERO);
                if (batch.evicted()) {
                    error(410, "Gone", "the changes after this position were evicted; list again");
                    return false;
                }
                deliver(batch);
            }
            long now = System.currentTimeMillis();
            if (now - lastBookmark >= bookmarkMs) {
                bookmark(false);
            } else if (now - lastWrite >= HEARTBEAT_MS && format.heartbeat() != null) {
                write(format.heartbeat());
            }
            return true;
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
