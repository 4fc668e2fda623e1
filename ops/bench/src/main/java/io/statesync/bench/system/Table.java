package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table, printed as is, so that a suite's output can be pasted into docs/benchmarks.md. */
public final class Table {

    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    public Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c instanceof Double d ? format(d) : String.valueOf(c));
        }
        rows.add(r);
        return this;
    }

    /** How a figure is printed in a cell. */
    static String cell(double d) {
        return format(d);
    }

    private static String format(double d) {
        // Ratios to the raw consumer are around 0.01: three decimals keep them readable.
        if (Math.abs(d) >= 100) {
            return String.format("%,.0f", d);
        }
        return Math.abs(d) >= 1 ? String.format("%.2f", d) : String.format("%.3f", d);
    }

    public String render() {
        StringBuilder sb = new StringBuilder("\n#### ").append(title).append("\n\n");
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        header.forEach(h -> sb.append("---|"));
        sb.append('\n');
        rows.forEach(r -> sb.append("| ").append(String.join(" | ", r)).append(" |\n"));
        return sb.toString();
    }
}
