package io.statesync.kubernetes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of docs/benchmarks.md's memory suite the manifests are sized from, read from its table so that a new
 * measurement moves the bound: the heap the suite's instance ran in, and the largest heap after a full GC, RSS after
 * listing every resource and time from start to ready at a million resources.
 */
record MemorySuiteFigures(long suiteHeapMib, double heapAfterGcMb, double rssAfterListingMb, double startToReadySeconds) {

    private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)m");

    static MemorySuiteFigures read(Path benchmarks) throws IOException {
        String doc = Files.readString(benchmarks);
        int start = doc.indexOf("## Suite 6: memory");
        String section = doc.substring(start, doc.indexOf("\n## ", start + 1));
        Matcher xmx = XMX.matcher(section);
        if (!xmx.find()) {
            throw new IllegalStateException("the memory suite names no -Xmx");
        }
        List<String> lines = section.lines().toList();
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; i++) {
            header = lines.get(i).contains("RSS after listing all") ? i : -1;
        }
        List<String> columns = cells(lines.get(header));
        List<List<String>> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(cells(lines.get(i)));
        }
        return new MemorySuiteFigures(Long.parseLong(xmx.group(1)), max(rows, columns, "heap after full GC"),
            max(rows, columns, "RSS after listing all"), max(rows, columns, "start to ready"));
    }

    private static List<String> cells(String row) {
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::strip).toList();
    }

    private static double max(List<List<String>> rows, List<String> columns, String column) {
        int index = -1;
        for (int i = 0; i < columns.size() && index < 0; i++) {
            index = columns.get(i).startsWith(column) ? i : -1;
        }
        if (index < 0 || rows.isEmpty()) {
            throw new IllegalStateException("the memory suite's table has no column " + column + " or no row");
        }
        final int at = index;
        return rows.stream().mapToDouble(r -> Double.parseDouble(r.get(at).replaceAll("[^0-9.]", ""))).max().orElseThrow();
    }
}
