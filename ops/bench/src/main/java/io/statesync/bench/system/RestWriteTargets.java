package io.statesync.bench.system;

import java.util.List;

/**
 * The REST writes suite's targets, checked against the medians of its first contender (statesync's defaults unless
 * told otherwise), with the ratios to the HTTP baseline and to commits on request turned off.
 */
final class RestWriteTargets {

    static final double SEQUENTIAL_P50_MS = 15;
    static final double SEQUENTIAL_P99_MS = 40;
    static final double CONCURRENT_WRITES_PER_S = 5_000;
    static final double APPLY_1K_S = 3;
    static final double APPLY_10K_S = 15;
    /** CPU per write with commits on request, at most this much above the figure with them off. */
    static final double COMMIT_CPU_RATIO = 1.10;
    /** A server-side apply may cost at most this much of a PUT's CPU in the same run. */
    static final double APPLY_CPU_RATIO = 1.5;

    private RestWriteTargets() {
    }

    static String render(String contender, RunSheet sequential, RunSheet bulkApplies, RunSheet concurrent, RunSheet bulk,
                         RunSheet apply, List<Integer> applyDocs) {
        Table t = new Table("Targets (" + contender + ", medians) and ratios", "figure", "measured", "target", "met");
        double[] seq = sequential.median(contender);
        double[] conc = concurrent.median(contender);
        if (seq == null || conc == null) {
            return "";
        }
        check(t, "sequential PUT p50 (ms)", seq[0], SEQUENTIAL_P50_MS, false);
        check(t, "sequential PUT p99 (ms)", seq[1], SEQUENTIAL_P99_MS, false);
        check(t, "PUT writes/s at 64 connections", conc[0], CONCURRENT_WRITES_PER_S, true);
        double[] ssa = bulkApplies.median(contender);
        if (ssa != null) {
            check(t, "JVM CPU per apply / per PUT, bulk at the same rate", ssa[3], APPLY_CPU_RATIO, false);
        }
        double[] applied = apply.median(contender);
        for (int i = 0; i < applyDocs.size(); i++) {
            int n = applyDocs.get(i);
            if (n == 1_000 || n == 10_000) {
                check(t, String.format("apply -f %,d docs (s)", n), applied[i], n == 1_000 ? APPLY_1K_S : APPLY_10K_S, false);
            }
        }
        double[] hello = sequential.median(RestWritesSuite.HELLO);
        double[] helloConc = concurrent.median(RestWritesSuite.HELLO);
        t.row("sequential PUT p50 / hello p50", seq[0] / hello[0], "", "");
        t.row("writes/s at 64 connections / hello", conc[0] / helloConc[0], "", "");
        double[] floor = concurrent.median(RestWritesSuite.FLOOR);
        if (floor != null) {
            t.row("writes/s at 64 connections / the write floor", conc[0] / floor[0], "", "");
        }
        double[] off = bulk.median(RestWritesSuite.COMMITS_OFF);
        double[] on = bulk.median(contender);
        if (off != null && on != null && !contender.equals(RestWritesSuite.COMMITS_OFF)) {
            check(t, "JVM CPU per bulk write, commits on request / off", on[3] / off[3], COMMIT_CPU_RATIO, false);
            t.row("app threads CPU per bulk write, on / off", on[4] / off[4], "", "");
            t.row("commits per 1,000 bulk writes, on / off", Table.cell(on[6]) + " / " + Table.cell(off[6]), "", "");
            t.row("first second at the bulk rate: JVM CPU per write, on / off", on[8] / off[8], "", "");
            t.row("first second at the bulk rate: commits per 1,000 writes, on / off",
                Table.cell(on[9]) + " / " + Table.cell(off[9]), "", "");
        }
        return t.render();
    }

    private static void check(Table t, String figure, double measured, double target, boolean atLeast) {
        boolean met = atLeast ? measured >= target : measured <= target;
        t.row(figure, measured, (atLeast ? ">= " : "<= ") + Table.cell(target), met ? "yes" : "**no**");
    }
}
