package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.HdrHistogram.Histogram;

/**
 * A GET load generator over {@code connections} keep-alive connections, each on its own thread with one request in
 * flight, cycling through a list of paths. Closed loop gives the maximum rate; open loop gives the latency at a
 * fixed rate, measured from each request's intended send time.
 */
final class HttpLoad {

    record Result(double qps, Latencies latencies, long errors) {
    }

    private record Share(Histogram histogram, long count, long errors) {
    }

    @FunctionalInterface
    private interface Loop {
        Share run(HttpConnection conn, byte[][] requests, int first) throws Exception;
    }

    private HttpLoad() {
    }

    /** Back-to-back requests for {@code seconds}: the maximum rate at this many connections. */
    static Result closed(int port, List<String> paths, int connections, double seconds) throws Exception {
        return load(port, paths, connections, (conn, requests, first) -> {
            Histogram h = Latencies.histogram();
            long count = 0;
            long errors = 0;
            long end = System.nanoTime() + (long) (seconds * 1e9);
            for (long now = System.nanoTime(); now < end; count++) {
                errors += conn.send(requests[(int) ((first + count) % requests.length)]) == 200 ? 0 : 1;
                long done = System.nanoTime();
                h.recordValue(done - now);
                now = done;
            }
            return new Share(h, count, errors);
        });
    }

    /** {@code rate} requests/s in total, each connection on its own open-loop schedule of rate / connections. */
    static Result open(int port, List<String> paths, int connections, double rate, double seconds) throws Exception {
        return load(port, paths, connections, (conn, requests, first) -> {
            Histogram h = Latencies.histogram();
            long[] errors = {0};
            OpenLoop.Done done = new OpenLoop(rate / connections).run(seconds, (i, due) -> {
                errors[0] += conn.send(requests[(int) ((first + i) % requests.length)]) == 200 ? 0 : 1;
                h.recordValue(Math.max(0, System.nanoTime() - due));
            });
            return new Share(h, done.count(), errors[0]);
        });
    }

    private static Result load(int port, List<String> paths, int connections, Loop loop) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(connections);
        CountDownLatch ready = new CountDownLatch(connections);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Share>> shares = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                int first = c * paths.size() / connections;
                shares.add(pool.submit(() -> {
                    try (HttpConnection conn = new HttpConnection(port)) {
                        byte[][] requests = paths.stream().map(conn::request).toArray(byte[][]::new);
                        ready.countDown();
                        go.await();
                        return loop.run(conn, requests, first);
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
