package io.statesync.bench.system;

import java.util.List;
import java.util.function.ToDoubleFunction;

import org.HdrHistogram.Histogram;

/** A latency distribution in milliseconds, read off an HdrHistogram of nanoseconds. */
record Latencies(double p50, double p99, double p999, double max, long count) {

    /** Nanosecond histograms up to an hour, 3 significant digits. */
    static Histogram histogram() {
        return new Histogram(3_600_000_000_000L, 3);
    }

    static Latencies of(Histogram h) {
        return new Latencies(ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(99)),
            ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()), h.getTotalCount());
    }

    static Histogram merge(List<Histogram> histograms) {
        Histogram all = histogram();
        histograms.forEach(all::add);
        return all;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The median over runs of one field, e.g. {@code Latencies::p99}. */
    static double median(List<Latencies> runs, ToDoubleFunction<Latencies> field) {
        return Stats.median(runs.stream().map(field::applyAsDouble).toList());
    }
}
