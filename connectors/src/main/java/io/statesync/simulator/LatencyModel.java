package io.statesync.simulator;

import java.time.Duration;
import java.util.Locale;
import java.util.random.RandomGenerator;

/** How long a simulated apply takes. */
@FunctionalInterface
public interface LatencyModel {

    Duration next(RandomGenerator random);

    /** No delay at all: for benchmarks that measure statesync, not the fleet. */
    static LatencyModel zero() {
        return random -> Duration.ZERO;
    }

    static LatencyModel fixed(Duration latency) {
        return random -> latency;
    }

    /** Uniform on [0, 2 * mean]. */
    static LatencyModel uniform(Duration mean) {
        long bound = Math.max(1, mean.toNanos() * 2);
        return random -> Duration.ofNanos(random.nextLong(bound + 1));
    }

    /** Exponential with the given mean: mostly fast, with a long tail, like real actuators. */
    static LatencyModel exponential(Duration mean) {
        return random -> Duration.ofNanos((long) (-Math.log(1.0 - random.nextDouble()) * mean.toNanos()));
    }

    /**
     * Parses {@code zero}, {@code fixed:50ms}, {@code uniform:50ms} or {@code exponential:50ms}; the duration takes
     * the units {@code ms} or {@code s}, and a bare number means milliseconds.
     */
    static LatencyModel parse(String spec) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("zero") || s.equals("0")) {
            return zero();
        }
        int colon = s.indexOf(':');
        if (colon < 0) {
            return fixed(duration(s));
        }
        Duration d = duration(s.substring(colon + 1));
        return switch (s.substring(0, colon)) {
            case "fixed" -> fixed(d);
            case "uniform" -> uniform(d);
            case "exponential", "exp" -> exponential(d);
            default -> throw new IllegalArgumentException("Unknown latency distribution in " + spec);
        };
    }

    private static Duration duration(String s) {
        if (s.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
        }
        if (s.endsWith("s")) {
            return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1).trim()));
        }
        return Duration.ofMillis(Long.parseLong(s.trim()));
    }
}
