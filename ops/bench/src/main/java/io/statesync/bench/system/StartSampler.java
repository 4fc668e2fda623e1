package io.statesync.bench.system;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A thread-dump sampler for the seconds of a start-up: every 20 ms it takes the stacks of the starting thread and
 * the start-up helpers, and counts the innermost frame of our code or of a library we call (Kafka, RocksDB, Javalin),
 * which is where a slow {@code start()} waits, together with its nearest callers in Kafka Streams or statesync
 * ({@code RocksDB.open} alone does not say whether a task or the state directory's start-up scan opened it).
 * {@code jcmd Thread.print} is too slow on a loaded machine to catch a start that lasts a few seconds.
 */
final class StartSampler implements AutoCloseable {

    private static final Predicate<String> OURS = c -> c.startsWith("io.statesync") || c.startsWith("org.apache.kafka")
        || c.startsWith("org.rocksdb") || c.startsWith("io.javalin");

    private static final Predicate<String> CALLER = c -> c.startsWith("io.statesync") || c.startsWith("org.apache.kafka.streams");
    private static final int CALLERS = 3;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final long starter = Thread.currentThread().getId();
    private final Thread sampler = new Thread(this::loop, "start-sampler");
    private volatile boolean running = true;
    private int samples;

    StartSampler() {
        sampler.setDaemon(true);
        sampler.start();
    }

    private void loop() {
        while (running) {
            for (ThreadInfo t : threads.dumpAllThreads(false, false)) {
                if (t.getThreadId() == starter || t.getThreadName().startsWith("statesync-startup")) {
                    String where = where(t.getStackTrace());
                    if (!where.isEmpty()) {
                        counts.merge(t.getThreadName() + ": " + where, 1, Integer::sum);
                    }
                }
            }
            samples++;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The innermost frame of ours or a library's, then the next {@value #CALLERS} callers in Streams or statesync. */
    private static String where(StackTraceElement[] stack) {
        List<String> frames = new ArrayList<>();
        for (StackTraceElement f : stack) {
            boolean caller = !frames.isEmpty() && CALLER.test(f.getClassName());
            if ((frames.isEmpty() && OURS.test(f.getClassName())) || caller) {
                String name = f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName();
                if (!frames.contains(name)) {
                    frames.add(name);
                }
            }
            if (frames.size() > CALLERS) {
                break;
            }
        }
        return String.join(" <- ", frames);
    }

    /** The most frequent frames, as {@code count x thread: frame}, one per line. */
    String top(int n) {
        StringBuilder out = new StringBuilder(samples + " samples\n");
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
            .forEach(e -> out.append(String.format("      %4d x %s%n", e.getValue(), e.getKey())));
        return out.toString();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join();
    }
}
