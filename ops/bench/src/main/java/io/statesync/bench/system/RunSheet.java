package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table whose rows are (contender, run, figures): it prints each run as measured, then one median row per
 * contender over its measured runs; run 0 is the warm-up and is shown but left out of the medians.
 */
final class RunSheet {

    private final Table table;
    private final Map<String, List<double[]>> measured = new LinkedHashMap<>();
    private final Map<String, double[]> latest = new LinkedHashMap<>();

    RunSheet(String title, String... figures) {
        String[] header = new String[figures.length + 2];
        header[0] = "contender";
        header[1] = "run";
        System.arraycopy(figures, 0, header, 2, figures.length);
        this.table = new Table(title, header);
    }

    void add(String contender, int run, double... figures) {
        table.row(row(contender, run == 0 ? "warm-up (discarded)" : String.valueOf(run), figures));
        latest.put(contender, figures.clone());
        if (run > 0) {
            measured.computeIfAbsent(contender, c -> new ArrayList<>()).add(figures.clone());
        }
    }

    /** The figures a contender's latest run added, warm-up included, or null when it has none. */
    double[] latest(String contender) {
        return latest.get(contender);
    }

    /** The per-figure medians of a contender's measured runs, or null when it has none. */
    double[] median(String contender) {
        List<double[]> runs = measured.get(contender);
        if (runs == null) {
            return null;
        }
        double[] m = new double[runs.get(0).length];
        for (int i = 0; i < m.length; i++) {
            int col = i;
            m[i] = Stats.median(runs.stream().map(v -> v[col]).toList());
        }
        return m;
    }

    String render() {
        measured.keySet().forEach(contender -> table.row(row(contender, "**median**", median(contender))));
        return table.render();
    }

    private static Object[] row(String contender, String run, double[] figures) {
        Object[] row = new Object[figures.length + 2];
        row[0] = contender;
        row[1] = run;
        for (int i = 0; i < figures.length; i++) {
            row[i + 2] = figures[i];
        }
        return row;
    }
}
