package io.statesync.topology.internal;

import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Value;
import io.statesync.config.AppConfig;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OutputBudgetTest {

    /** spec.max.bytes at its least, so the budget is six times 1,024 bytes. */
    private final OutputBudget budget = new OutputBudget(new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://output-budget",
        AppConfig.SPEC_MAX_BYTES, 1_024)));

    @Test
    void shouldAdmitAWriteThatFitsAlthoughItsBoundDoesNot() {
        // Two UTF-8 bytes per char: four copies of the write fit, while the bound counts three bytes per char.
        WriteAdmission.Refused refused = budget.check(write("\u00e9".repeat(600)), null);

        assertThat(refused).isNull();
    }

    @Test
    void shouldRefuseAWriteWhoseExactSizeDoesNotFit() {
        WriteAdmission.Refused refused = budget.check(write("\u00e9".repeat(800)), null);

        assertThat(refused).isNotNull();
        assertThat(refused.reason()).isEqualTo(WriteAdmission.OUTPUT_TOO_LARGE);
        assertThat(refused.message()).contains("the write has 16");
    }

    @Test
    void shouldAdmitASmallWriteOnItsBoundAlone() {
        assertThat(budget.check(write("small"), null)).isNull();
    }

    private static DesiredState write(String text) {
        return DesiredState.newBuilder().setKind("WebApp").setNamespace("default").setName("a")
            .setSpec(new Value(Map.of("t", new Value(text)))).build();
    }
}
