package io.statesync.bench.system;

import java.io.IOException;
import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * One SSE client of {@code /api/v1/watch} on its own thread. Each write of the fan-out suite carries its index and
 * its intended send time (nanoTime, same JVM) in the spec; the first event that shows a given index is its
 * delivery, and later events of the same spec (status updates) are not counted again.
 */
final class WatchClient implements AutoCloseable {

    static final String SEQ = "benchSeq";
    static final String SENT = "benchSentNanos";

    private final HttpConnection conn;
    private final String path;
    private final CountDownLatch open = new CountDownLatch(1);
    private final Histogram lag = Latencies.histogram();
    private final BitSet seen = new BitSet();
    private final Thread thread;
    private final long firstSeq;
    private volatile int status;
    private volatile boolean closed;

    /** Counts only writes from index {@code firstSeq}: the stream opens with a snapshot of earlier ones. */
    WatchClient(int port, String path, int index, long firstSeq) throws IOException {
        this.conn = new HttpConnection(port);
        this.path = path;
        this.firstSeq = firstSeq;
        this.thread = new Thread(this::read, "watch-client-" + index);
    }

    WatchClient start() {
        thread.start();
        return this;
    }

    /** Waits for the stream's opening comment, so that writes start only once every client is subscribed. */
    boolean awaitOpen(long millis) throws InterruptedException {
        return open.await(millis, TimeUnit.MILLISECONDS) && status == 200;
    }

    private void read() {
        try {
            conn.write(conn.request(path));
            status = conn.readHead(new StringBuilder());
            open.countDown();
            while (!closed) {
                String line = conn.bodyLine();
                if (line.startsWith("data: ")) {
                    event(line, System.nanoTime());
                }
            }
        } catch (IOException e) {
            if (!closed) {
                System.err.println("watch client failed: " + e);
            }
        } finally {
            open.countDown();
        }
    }

    private synchronized void event(String data, long now) {
        long seq = number(data, SEQ);
        long sent = number(data, SENT);
        if (seq >= firstSeq && sent > 0 && !seen.get((int) (seq - firstSeq))) {
            seen.set((int) (seq - firstSeq));
            lag.recordValue(Math.max(0, now - sent));
        }
    }

    /** The non-negative integer after {@code "name":} in a JSON text, or -1; cheaper than parsing 100 streams. */
    static long number(String json, String name) {
        String key = "\"" + name + "\":";
        int i = json.indexOf(key);
        if (i < 0) {
            return -1;
        }
        long v = 0;
        for (i += key.length(); i < json.length() && Character.isDigit(json.charAt(i)); i++) {
            v = v * 10 + (json.charAt(i) - '0');
        }
        return v;
    }

    synchronized Histogram lag() {
        return lag.copy();
    }

    synchronized int delivered() {
        return seen.cardinality();
    }

    @Override
    public void close() throws Exception {
        closed = true;
        conn.close();
        thread.join(5_000);
    }
}
