package io.statesync.bench.system;

/**
 * CPU spent over a span of wall-clock time: of the whole JVM (the application, its HTTP server, the broker and the
 * load generator together, which is what a write costs the machine here) and of one application's own Kafka threads
 * ({@link ClientCpu#nanos}: stream threads and client network threads, not the HTTP server's).
 */
final class CpuSpan {

    private final String applicationId;
    private final long jvmAtStart;
    private final long appAtStart;
    private final long wallAtStart;

    private CpuSpan(String applicationId) {
        this.applicationId = applicationId;
        this.jvmAtStart = ClientCpu.processNanos();
        this.appAtStart = applicationId.isEmpty() ? 0 : ClientCpu.nanos(applicationId);
        this.wallAtStart = System.nanoTime();
    }

    /** From now; {@code applicationId} empty when no application's threads are of interest. */
    static CpuSpan start(String applicationId) {
        return new CpuSpan(applicationId);
    }

    double jvmMicrosPer(long operations) {
        return (ClientCpu.processNanos() - jvmAtStart) / 1e3 / Math.max(1, operations);
    }

    double appMicrosPer(long operations) {
        return applicationId.isEmpty() ? 0 : (ClientCpu.nanos(applicationId) - appAtStart) / 1e3 / Math.max(1, operations);
    }

    /** Cores the JVM kept busy on average since the start. */
    double coresBusy() {
        return (double) (ClientCpu.processNanos() - jvmAtStart) / (System.nanoTime() - wallAtStart);
    }
}
