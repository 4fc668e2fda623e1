package io.statesync.bench.system;

import java.util.Arrays;
import java.util.List;

/** Medians, as every reported figure is the median of the measured runs. */
public final class Stats {

    private Stats() {
    }

    public static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    public static double median(double... values) {
        return median(Arrays.stream(values).boxed().toList());
    }
}
