package io.statesync.rest.internal;

import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The watch caps, and the check a WebSocket upgrade makes of them before its client falls back to HTTP. */
class WatchLimitsTest {

    @Test
    void shouldRefuseAnUpgradePastTheTokensCapAsTheWatchWouldWithoutTakingAPermit() {
        WatchLimits limits = new WatchLimits(10, 1);
        assertThatCode(() -> limits.refuseIfFull("Bearer a", "10.0.0.1")).doesNotThrowAnyException();
        assertThat(limits.open()).as("a check holds no permit").isZero();
        WatchLimits.Permit held = limits.acquire("Bearer a", "10.0.0.1");
        assertThatThrownBy(() -> limits.refuseIfFull("Bearer a", "10.0.0.2")).isInstanceOfSatisfying(ApiError.class,
            e -> assertThat(e.code() + " " + e.getMessage()).startsWith("429 ").contains("watch.max.open.per.token=1"));
        assertThatCode(() -> limits.refuseIfFull("Bearer b", "10.0.0.1")).doesNotThrowAnyException();
        held.close();
        assertThatCode(() -> limits.refuseIfFull("Bearer a", "10.0.0.1")).doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseAnUpgradePastTheInstancesCap() {
        WatchLimits limits = new WatchLimits(1, 5);
        limits.acquire(null, "10.0.0.1");
        assertThatThrownBy(() -> limits.refuseIfFull(null, "10.0.0.2")).isInstanceOfSatisfying(ApiError.class,
            e -> assertThat(e.code() + " " + e.getMessage()).startsWith("429 ").contains("watch.max.open=1"));
    }
}
