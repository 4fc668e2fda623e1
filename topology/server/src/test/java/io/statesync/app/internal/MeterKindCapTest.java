package io.statesync.app.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import io.statesync.topology.ReconcileMetrics;
import org.junit.jupiter.api.Test;

/** Kinds minted by clients must not grow /metrics without bound: past metrics.max.kinds they fold into kind="other". */
class MeterKindCapTest {

    private static final int CAP = 100;

    @Test
    void shouldKeepMetricsWithinABoundWhen1500KindsAreWritten() {
        AppMeterRegistry registry = new AppMeterRegistry();
        ReconcileMetrics metrics = new ReconcileMetrics(registry, CAP);
        long empty = scrapeBytes(registry);
        touchKinds(metrics, 0, CAP);
        long atCap = scrapeBytes(registry);
        touchKinds(metrics, CAP, 1_500);
        long after = scrapeBytes(registry);
        System.out.printf("/metrics bytes: %d at start, %d after %d kinds, %d after 1,500 kinds%n", empty, atCap, CAP, after);
        long perKind = (atCap - empty) / CAP;
        assertThat(after - atCap).as("1,400 kinds past the cap add the 'other' series only").isLessThanOrEqualTo(2 * perKind);
        String scrape = registry.scrape();
        assertThat(scrape).contains("kind=\"other\"").doesNotContain("kind=\"K1499\"").contains("kind=\"K99\"");
        assertThat(scrape).contains("statesync_resources{health=\"Healthy\",kind=\"other\",sync_status=\"Synced\"} 1400.0");
    }

    private static void touchKinds(ReconcileMetrics metrics, int from, int to) {
        for (int i = from; i < to; i++) {
            String kind = "K" + i;
            metrics.reconciled(kind, "InSync", ReconcileMetrics.RESULT_CONVERGED, 1_000_000);
            metrics.converged(kind, 1_500);
            metrics.conflict(kind, "ResourceVersion");
            metrics.correctionEmitted(kind, "UPDATE", "Drift");
            metrics.resourceMoved("0_0", null, ReconcileMetrics.series(kind, "Synced", "Healthy"));
        }
    }

    private static long scrapeBytes(AppMeterRegistry registry) {
        return registry.scrape().getBytes(StandardCharsets.UTF_8).length;
    }
}
