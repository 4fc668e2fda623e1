package io.statesync.topology.internal;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.topology.TopologyFixture;
import io.statesync.topology.WriteAdmission;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PublishedResourceTest {

    private static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    private static Resource resource() {
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(null,
            TopologyFixture.desiredState("WebApp/default/shop", Map.of("replicas", 2L)), ReconcilePolicy.defaults());
        return WriteAdmission.admitted(null, a, NOW);
    }

    @Test
    void shouldDescribeTheInstanceItWasMadeFromWhileNothingIsSetOnIt() {
        Resource r = resource();
        PublishedResource p = new PublishedResource(r, new byte[5]);

        assertThat(p.describes(r)).isTrue();
        // A generation read again comes boxed afresh: equal scalars are the same Resource.
        r.getMetadata().setGeneration(r.getMetadata().getGeneration());
        assertThat(p.describes(r)).isTrue();
    }

    @Test
    void shouldCompareEveryFieldTheSchemasHold() {
        assertThat(ObjectMeta.getClassSchema().getFields()).as("a new field must be compared too")
            .hasSize(PublishedResource.METADATA_FIELDS);
        assertThat(ResourceStatus.getClassSchema().getFields()).as("a new field must be compared too")
            .hasSize(PublishedResource.STATUS_FIELDS);
        assertThat(Resource.getClassSchema().getFields()).extracting(f -> f.name())
            .containsExactly("metadata", "spec", "status");
    }

    @Test
    void shouldNotDescribeAnotherInstanceEvenIfEqual() {
        Resource r = resource();

        assertThat(new PublishedResource(r, new byte[5]).describes(Resource.newBuilder(r).build())).isFalse();
    }

    @Test
    void shouldNotDescribeTheInstanceOnceAFieldOfItsMetadataOrStatusIsSet() {
        Resource r = resource();
        PublishedResource p = new PublishedResource(r, new byte[5]);
        r.getStatus().setLastObservedAt(Instant.ofEpochMilli(NOW + 1));
        assertThat(p.describes(r)).as("a heartbeat").isFalse();

        r = resource();
        p = new PublishedResource(r, new byte[5]);
        r.getMetadata().setResourceVersion("99");
        assertThat(p.describes(r)).as("a new version").isFalse();

        r = resource();
        p = new PublishedResource(r, new byte[5]);
        r.getMetadata().setFinalizers(List.of("example.com/keep"));
        assertThat(p.describes(r)).as("another list").isFalse();

        r = resource();
        p = new PublishedResource(r, new byte[5]);
        r.setStatus(ResourceStatus.newBuilder(r.getStatus()).setSyncStatus(SyncStatus.Synced).build());
        assertThat(p.describes(r)).as("another status").isFalse();

        r = resource();
        p = new PublishedResource(r, new byte[5]);
        r.setSpec(TopologyFixture.spec(Map.of("replicas", 2L)));
        assertThat(p.describes(r)).as("another spec, even an equal one").isFalse();
    }
}
