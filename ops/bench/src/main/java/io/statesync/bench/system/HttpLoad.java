package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.HdrHistogram.Histogram;

/**
 * A load generator over {@code connections} keep-alive connections, each on its own thread with one request in
 * flight, cycling through a list of GET paths or through requests built for it. Closed loop gives the maximum rate;
 * open loop gives the latency at a fixed rate, measured from each request's intended send time. Any 2xx is a success.
 */
final class HttpLoad {

    record Result(double qps, Latencies latencies, long errors) {
    }

    private record Share(Histogram histogram, long count, long errors) {
    }

    /** The requests connection {@code index} cycles through, built on that connection (its Host header). */
    @FunctionalInterface
    interface Requests {
        byte[][] build(HttpConnection conn, int index);
    }

    @FunctionalInterface
    private interface Loop {
        Share run(HttpConnection conn, byte[][] requests, int first) throws Exception;
    }

    private HttpLoad() {
    }

    /** Back-to-back requests for {@code seconds}: the maximum rate at this many connections. */
    static Result closed(int port, List<String> paths, int connections, double seconds) throws Exception {
        return closed(port, gets(paths), connections, seconds);
    }

    /** {@code perConnection} back-to-back requests on each connection, whatever time they take. */
    static Result closedCount(int port, Requests built, int connections, long perConnection) throws Exception {
        return load(port, built, connections, (conn, requests, first) -> {
            Histogram h = Latencies.histogram();
            long errors = 0;
            for (long i = 0; i < perConnection; i++) {
                long start = System.nanoTime();
                errors += ok(conn.send(requests[(int) ((first + i) % requests.length)])) ? 0 : 1;
                h.recordValue(System.nanoTime() - start);
            }
            return new Share(h, perConnection, errors);
        });
    }

    static Result closed(int port, Requests built, int connections, double seconds) throws Exception {
        return load(port, built, connections, (conn, requests, first) -> {
            Histogram h = Latencies.histogram();
            long count = 0;
            long errors = 0;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            for (long now = System.nanoTime(); now < end; count++) {
                errors += ok(conn.send(requests[(int) ((first + count) % requests.length)])) ? 0 : 1;
                long done = System.nanoTime();
                h.recordValue(done - now);
                now = done;
            }
            return new Share(h, count, errors);
        });
    }

    /** {@code rate} requests/s in total, each connection on its own open-loop schedule of rate / connections. */
    static Result open(int port, List<String> paths, int connections, double rate, double seconds) throws Exception {
        return open(port, gets(paths), connections, rate, seconds);
    }

    static Result open(int port, Requests built, int connections, double rate, double seconds) throws Exception {
        return load(port, built, connections, (conn, requests, first) -> {
            Histogram h = Latencies.histogram();
            long[] errors = {0};
            OpenLoop.Done done = new OpenLoop(rate / connections).run(seconds, (i, due) -> {
                errors[0] += ok(conn.send(requests[(int) ((first + i) % requests.length)])) ? 0 : 1;
                h.recordValue(Math.max(0, System.nanoTime() - due));
            });
            return new Share(h, done.count(), errors[0]);
        });
    }

    private static Requests gets(List<String> paths) {
        return (conn, index) -> paths.stream().map(conn::request).toArray(byte[][]::new);
    }

    private static boolean ok(int status) {
        return status >= 200 && status < 300;
    }

    private static Result load(int port, Requests built, int connections, Loop loop) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        CountDownLatch ready = new CountDownLatch(connections);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Share>> shares = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int index = c;
                shares.add(pool.submit(() -> {
                    try (HttpConnection conn = new HttpConnection(port)) {
                        byte[][] requests = built.build(conn, index);
                        ready.countDown();
                        go.await();
                        // Connections that share one list start at different places in it.
                        return loop.run(conn, requests, index * requests.length / connections);
                    }
                }));
            }
            ready.await();
            long start = System.nanoTime();
            go.countDown();
            List<Histogram> histograms = new ArrayList<>();
            long count = 0;
            long errors = 0;
            for (Future<Share> f : shares) {
                Share s = f.get();
                histograms.add(s.histogram());
                count += s.count();
                errors += s.errors();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            return new Result(count / elapsed, Latencies.of(Latencies.merge(histograms)), errors);
        } finally {
            pool.shutdownNow();
        }
    }
}
