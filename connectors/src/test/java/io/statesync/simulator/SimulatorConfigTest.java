package io.statesync.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class SimulatorConfigTest {

    @Test
    void shouldManageEveryKindWithoutFailuresOrDriftByDefault() {
        SimulatorSettings settings = new SimulatorConfig(Map.of()).settings();

        assertThat(settings.kinds()).isEmpty();
        assertThat(settings.failureRate()).isZero();
        assertThat(settings.driftPeriod()).isZero();
    }

    @Test
    void shouldReadEverySetting() {
        SimulatorSettings settings = new SimulatorConfig(Map.of(
            SimulatorConfig.KINDS, "WebApp,Database",
            SimulatorConfig.LATENCY, "fixed:7ms",
            SimulatorConfig.FAILURE_RATE, "0.25",
            SimulatorConfig.DRIFT_INTERVAL_MS, "1500",
            SimulatorConfig.DRIFT_FIELD, "image",
            SimulatorConfig.SEED, "9")).settings();

        assertThat(settings.kinds()).isEqualTo(Set.of("WebApp", "Database"));
        assertThat(settings.latency().next(new SplittableRandom(1))).isEqualTo(Duration.ofMillis(7));
        assertThat(settings.failureRate()).isEqualTo(0.25);
        assertThat(settings.driftPeriod()).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings.driftField()).isEqualTo("image");
        assertThat(settings.seed()).isEqualTo(9);
    }

    @Test
    void shouldRejectAFailureRateAboveOne() {
        assertThatThrownBy(() -> new SimulatorConfig(Map.of(SimulatorConfig.FAILURE_RATE, "1.5")))
            .isInstanceOf(ConfigException.class);
    }
}
