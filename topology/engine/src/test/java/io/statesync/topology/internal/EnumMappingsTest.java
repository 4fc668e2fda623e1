package io.statesync.topology.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnumMappingsTest {

    @Test
    void shouldMapEverySchemaConstantToTheDomainConstantOfTheSameNameAndBack() {
        assertRoundTrip(EnumMappings.SYNC_STATUS, EnumMappings.AVRO_SYNC_STATUS, io.statesync.avro.SyncStatus.values());
        assertRoundTrip(EnumMappings.DIFF_KIND, EnumMappings.AVRO_DIFF_KIND, io.statesync.avro.DiffKind.values());
        assertRoundTrip(EnumMappings.ACTION, EnumMappings.AVRO_ACTION, io.statesync.avro.Action.values());
        assertRoundTrip(EnumMappings.REASON, EnumMappings.AVRO_REASON, io.statesync.avro.Reason.values());
    }

    @Test
    void shouldFailAtOnceWhenAConstantHasNoCounterpart() {
        assertThatThrownBy(() -> EnumMappings.byName(io.statesync.avro.SyncStatus.class, io.statesync.avro.DiffKind.class))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static <A extends Enum<A>, B extends Enum<B>> void assertRoundTrip(Map<A, B> there, Map<B, A> back, A[] all) {
        assertThat(there).hasSize(all.length);
        assertThat(back).hasSize(all.length);
        for (A a : all) {
            assertThat(there.get(a).name()).isEqualTo(a.name());
            assertThat(back.get(there.get(a))).isSameAs(a);
        }
    }
}
