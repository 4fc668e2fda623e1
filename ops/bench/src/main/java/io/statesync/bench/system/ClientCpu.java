package io.statesync.bench.system;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the threads of one Kafka Streams application in this JVM: its stream threads and its clients' network
 * threads, all of which carry the application id in their names. On a shared machine wall-clock rates swing with the
 * other load; CPU time per input record does not, so it is the steadier way to compare two contenders' own work.
 * The broker's CPU is not included (it runs in the same JVM but serves every contender).
 */
final class ClientCpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ClientCpu() {
    }

    /**
     * CPU nanoseconds of this whole JVM: the contender, the broker, the agent, the load, the tracker and the collector's
     * threads. Over a wall-clock span it says how many of the machine's cores a rate keeps busy.
     */
    static long processNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * Milliseconds the JIT compilers have spent compiling in this JVM, their threads summed: over a wall-clock span it
     * says whether a run measured the pipeline or the compilers, which take the same cores.
     */
    static long compileMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** Sum of the CPU nanoseconds of the live threads whose name contains {@code applicationId}. */
    static long nanos(String applicationId) {
        long total = 0;
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && info.getThreadName().contains(applicationId)) {
                long cpu = THREADS.getThreadCpuTime(info.getThreadId());
                total += Math.max(cpu, 0);
            }
        }
        return total;
    }
}
