package io.statesync.topology;

import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.PatchType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.WritePatch;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Patches and create-only writes, admitted per key by the real topology under TopologyTestDriver. */
class ServerSidePatchTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:1.20", "replicas", 2L, "env", Map.of("ENV", "production"));

    private Resource create() {
        f.putDesired(TopologyFixture.desiredState(KEY, SPEC));
        return last(f.drainResources());
    }

    private static DesiredState patch(PatchType type, String document) {
        String[] k = KEY.split("/");
        return DesiredState.newBuilder().setKind(k[0]).setNamespace(k[1]).setName(k[2])
            .setPatch(new WritePatch(type, document)).build();
    }

    private ReconcileEvent answer(String requestId) {
        List<ReconcileEvent> events = f.drainEvents();
        return events.stream().filter(e -> requestId.equals(e.getRequestId())).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Resource r) {
        return (Map<String, Object>) Values.toJava(r.getSpec());
    }

    @Test
    void shouldMergePatchTheStoredSpecAndLeaveOtherFieldsAlone() {
        Resource before = create();
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":{\"image\":\"nginx:1.21\",\"replicas\":5}}"), "p1");
        Resource after = last(f.drainResources());
        assertThat(spec(after)).containsEntry("image", "nginx:1.21").containsEntry("replicas", 5L)
            .containsEntry("env", Map.of("ENV", "production"));
        assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration() + 1);
        assertThat(answer("p1").getType()).isEqualTo(EventType.Accepted);
    }

    @Test
    void shouldApplyAPatchToTheNewestVersionWhateverVersionTheCallerSaw() {
        create();
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":{\"replicas\":3}}"), "p1");
        f.putDesired(patch(PatchType.MergePatch, "{\"metadata\":{\"labels\":{\"team\":\"web\"}}}"), "p2");
        Resource after = last(f.drainResources());
        assertThat(spec(after)).containsEntry("replicas", 3L);
        assertThat(after.getMetadata().getLabels()).containsEntry("team", "web");
        assertThat(f.drainEvents()).filteredOn(e -> e.getRequestId() != null).extracting(ReconcileEvent::getType)
            .containsOnly(EventType.Accepted);
    }

    @Test
    void shouldApplyAJsonPatchInOrder() {
        create();
        f.putDesired(patch(PatchType.JsonPatch, "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":2},"
            + "{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4},{\"op\":\"remove\",\"path\":\"/spec/env\"},"
            + "{\"op\":\"add\",\"path\":\"/metadata/labels/tier\",\"value\":\"front\"}]"), "p1");
        Resource after = last(f.drainResources());
        assertThat(spec(after)).containsEntry("replicas", 4L).doesNotContainKey("env");
        assertThat(after.getMetadata().getLabels()).containsEntry("tier", "front");
    }

    @Test
    void shouldRefuseAJsonPatchWhoseTestFailsAndChangeNothing() {
        create();
        f.putDesired(patch(PatchType.JsonPatch, "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":7},"
            + "{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4}]"), "p1");
        assertThat(f.drainResources()).isEmpty();
        ReconcileEvent e = answer("p1");
        assertThat(e.getType()).isEqualTo(EventType.Invalid);
        assertThat(e.getReason()).isEqualTo(WriteAdmission.PATCH_NOT_APPLICABLE);
    }

    @Test
    void shouldRefuseAMalformedPatchAsInvalid() {
        create();
        f.putDesired(patch(PatchType.JsonPatch, "[{\"op\":\"frobnicate\",\"path\":\"/spec\"}]"), "p1");
        assertThat(f.drainResources()).isEmpty();
        assertThat(answer("p1").getReason()).isEqualTo(WriteAdmission.INVALID);
    }

    @Test
    void shouldRefuseAPatchOfMetadataOtherThanLabelsAnnotationsAndFinalizers() {
        create();
        f.putDesired(patch(PatchType.MergePatch, "{\"metadata\":{\"uid\":\"mine\"}}"), "p1");
        assertThat(f.drainResources()).isEmpty();
        assertThat(answer("p1").getType()).isEqualTo(EventType.Invalid);
    }

    @Test
    void shouldRefuseAPatchOfAMissingResourceAsNotFound() {
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":{\"replicas\":3}}"), "p1");
        assertThat(f.drainResources()).isEmpty();
        assertThat(answer("p1").getReason()).isEqualTo(WriteAdmission.NOT_FOUND);
    }

    @Test
    void shouldMakeAPatchWithAnExpectedVersionACompareAndSwap() {
        Resource r = create();
        DesiredState stale = patch(PatchType.MergePatch, "{\"spec\":{\"replicas\":3}}");
        stale.setExpectedResourceVersion("999");
        f.putDesired(stale, "p1");
        assertThat(f.drainResources()).isEmpty();
        ReconcileEvent e = answer("p1");
        assertThat(e.getType()).isEqualTo(EventType.Conflict);
        assertThat(e.getResourceVersion()).isEqualTo(r.getMetadata().getResourceVersion());
    }

    @Test
    void shouldRefuseACreateOnlyWriteOfAnExistingNameWithAlreadyExists() {
        create();
        DesiredState again = TopologyFixture.desiredState(KEY, Map.of("image", "other"));
        again.setCreateOnly(true);
        f.putDesired(again, "c1");
        assertThat(f.drainResources()).isEmpty();
        ReconcileEvent e = answer("c1");
        assertThat(e.getType()).isEqualTo(EventType.Conflict);
        assertThat(e.getReason()).isEqualTo(WriteAdmission.ALREADY_EXISTS);
    }

    @Test
    void shouldCreateWithACreateOnlyWriteWhenTheNameIsFree() {
        DesiredState d = TopologyFixture.desiredState(KEY, SPEC);
        d.setCreateOnly(true);
        f.putDesired(d, "c1");
        assertThat(last(f.drainResources()).getMetadata().getGeneration()).isEqualTo(1);
        assertThat(answer("c1").getReason()).isEqualTo("Created");
    }

    @Test
    void shouldRefuseAPatchThatGrowsPastSpecMaxBytesAndAdmitTheNextWrite() {
        create();
        StringBuilder ops = new StringBuilder("[");
        for (int i = 0; i < 24; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"op\":\"copy\",\"from\":\"/spec\",\"path\":\"/spec/a").append(i).append("\"}");
        }
        f.putDesired(patch(PatchType.JsonPatch, ops.append("]").toString()), "bomb");
        ReconcileEvent refused = answer("bomb");
        assertThat(refused.getType()).isEqualTo(EventType.Invalid);
        assertThat(refused.getReason()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
        assertThat(refused.getMessage()).contains("limit of");
        assertThat(f.drainResources()).isEmpty();
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":{\"replicas\":7}}"), "next");
        assertThat(answer("next").getType()).isEqualTo(EventType.Accepted);
    }

    @Test
    void shouldRefuseAMergePatchWhoseResultPassesSpecMaxBytes() {
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("big", "x".repeat(600_000))));
        f.drainResources();
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":{\"more\":\"" + "y".repeat(600_000) + "\"}}"), "grow");
        ReconcileEvent refused = answer("grow");
        assertThat(refused.getReason()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
        assertThat(refused.getMessage()).contains("spec.max.bytes");
    }

    @Test
    void shouldRefuseAMergePatchWhoseResultPassesSpecMaxDepth() {
        create();
        String deep = "{\"d\":".repeat(70) + "1" + "}".repeat(70);
        f.putDesired(patch(PatchType.MergePatch, "{\"spec\":" + deep + "}"), "deep");
        ReconcileEvent refused = answer("deep");
        assertThat(refused.getReason()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
        assertThat(refused.getMessage()).contains("spec.max.depth");
    }
}
