package io.statesync.topology;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceSummaryTest {

    @Property
    void shouldReadBackWhatItWrote(@ForAll @LongRange(min = -1, max = 999_999_999_999_999_999L) long version,
                                   @ForAll SyncStatus status, @ForAll boolean labelled) {
        ResourceSummary s = new ResourceSummary(version, status, labelled);
        assertThat(ResourceSummary.decode(new String(s.encode(), StandardCharsets.UTF_8))).isEqualTo(s);
    }

    @Test
    void shouldSummariseAResourceAsTheViewNeedsIt() {
        Resource r = Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind("WebApp").setNamespace("shop")
                .setName("cart").setResourceVersion("1234").setLabels(Map.of("tier", "web")).build())
            .setStatus(ResourceStatus.newBuilder().setSyncStatus(SyncStatus.Progressing).build()).build();
        RecordHeaders headers = new RecordHeaders();
        headers.add(StatesyncHeaders.RESOURCE_SUMMARY, ResourceSummary.of(r).encode());
        assertThat(ResourceSummary.from(headers)).isEqualTo(new ResourceSummary(1234, SyncStatus.Progressing, true));
        assertThat(new String(ResourceSummary.of(r).encode(), StandardCharsets.UTF_8)).isEqualTo("1234;Progressing;1");
    }

    @Test
    void shouldTreatAMissingOrMalformedHeaderAsNoSummary() {
        assertThat(ResourceSummary.from(new RecordHeaders())).isNull();
        assertThat(ResourceSummary.from(null)).isNull();
        for (String bad : new String[] {"", "12", "12;Synced", "x;Synced;1", "12;Nope;0", "12;Synced;2", "12;Synced;1;", "-2;Synced;1"}) {
            assertThat(ResourceSummary.decode(bad)).as(bad).isNull();
        }
        assertThat(ResourceSummary.decode("-1;;0")).isEqualTo(new ResourceSummary(-1, null, false));
    }
}
