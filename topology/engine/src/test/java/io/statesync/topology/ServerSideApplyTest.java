package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.ManagedFieldsEntry;
import io.statesync.avro.ManagedFieldsOperation;
import io.statesync.avro.PatchType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.WritePatch;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.Test;

/** Server-side apply and the managed fields of every write, admitted per key by the real topology under TopologyTestDriver. */
class ServerSideApplyTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";

    private static DesiredState write(PatchType type, String document, String manager, boolean force) {
        String[] k = KEY.split("/");
        return DesiredState.newBuilder().setKind(k[0]).setNamespace(k[1]).setName(k[2])
            .setPatch(document == null ? null : new WritePatch(type, document)).setFieldManager(manager).setForce(force).build();
    }

    private static DesiredState apply(String document, String manager) {
        return write(PatchType.Apply, document, manager, false);
    }

    private ReconcileEvent answer(String requestId) {
        return f.drainEvents().stream().filter(e -> requestId.equals(e.getRequestId())).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Resource r) {
        return (Map<String, Object>) Values.toJava(r.getSpec());
    }

    private static ManagedFieldsEntry entry(Resource r, String manager) {
        return r.getMetadata().getManagedFields().stream().filter(e -> e.getManager().equals(manager)).findFirst().orElse(null);
    }

    @Test
    void shouldCreateAnAbsentObjectByApplyAndRecordTheAppliersFields() {
        f.putDesired(apply("{\"metadata\":{\"labels\":{\"app\":\"shop\"}},\"spec\":{\"image\":\"nginx:1\",\"replicas\":2}}", "ci"), "a1");
        Resource r = last(f.drainResources());

        assertThat(answer("a1").getReason()).isEqualTo("Created");
        assertThat(spec(r)).containsEntry("image", "nginx:1").containsEntry("replicas", 2L);
        assertThat(r.getMetadata().getLabels()).containsEntry("app", "shop");
        ManagedFieldsEntry ci = entry(r, "ci");
        assertThat(ci.getOperation()).isEqualTo(ManagedFieldsOperation.Apply);
        assertThat(ci.getFieldsV1()).contains("\"f:spec\"").contains("\"f:replicas\"").contains("\"f:app\"");
    }

    @Test
    void shouldRefuseAnotherManagersChangeWithOneCausePerFieldAndChangeNothing() {
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\",\"replicas\":2}}", "ci"), "a1");
        Resource before = last(f.drainResources());
        f.drainEvents();

        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:2\",\"replicas\":3}}", "scaler"), "a2");
        ReconcileEvent refused = answer("a2");

        assertThat(refused.getType()).isEqualTo(EventType.Conflict);
        assertThat(refused.getReason()).isEqualTo(WriteAdmission.FIELD_MANAGER_CONFLICT);
        assertThat(refused.getMessage()).startsWith("Apply failed with 2 conflicts");
        assertThat(refused.getCauses()).extracting(c -> c.getField()).containsExactlyInAnyOrder(".spec.image", ".spec.replicas");
        assertThat(refused.getCauses()).allSatisfy(c -> assertThat(c.getMessage()).isEqualTo("conflict with \"ci\""));
        assertThat(f.drainResources()).isEmpty();
        assertThat(spec(before)).containsEntry("replicas", 2L);
    }

    @Test
    void shouldLetAForcedApplyTakeTheFieldsItChanges() {
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\",\"replicas\":2}}", "ci"), "a1");
        f.drainResources();

        f.putDesired(write(PatchType.Apply, "{\"spec\":{\"replicas\":3}}", "scaler", true), "a2");
        Resource r = last(f.drainResources());

        assertThat(spec(r)).containsEntry("replicas", 3L).containsEntry("image", "nginx:1");
        assertThat(entry(r, "scaler").getFieldsV1()).contains("f:replicas");
        assertThat(entry(r, "ci").getFieldsV1()).doesNotContain("f:replicas").contains("f:image");
    }

    @Test
    void shouldRecordAnUpdateEntryForAMergePatchThatTakesTheFieldFromTheApplier() {
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\",\"replicas\":2}}", "ci"), "a1");
        f.drainResources();

        f.putDesired(write(PatchType.MergePatch, "{\"spec\":{\"replicas\":4}}", "kubectl-edit", false), "p1");
        Resource r = last(f.drainResources());
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\",\"replicas\":5}}", "ci"), "a2");

        ManagedFieldsEntry edit = entry(r, "kubectl-edit");
        assertThat(edit.getOperation()).isEqualTo(ManagedFieldsOperation.Update);
        assertThat(edit.getFieldsV1()).contains("f:replicas");
        assertThat(entry(r, "ci").getFieldsV1()).doesNotContain("f:replicas");
        assertThat(answer("a2").getCauses()).extracting(c -> c.getField()).containsExactly(".spec.replicas");
    }

    @Test
    void shouldKeepNoManagedFieldsForAProducerWriteAndMarkItsChangesOnceTheObjectHasSome() {
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("replicas", 1L)));
        Resource plain = last(f.drainResources());
        f.putDesired(apply("{\"spec\":{\"replicas\":1}}", "ci"), "a1");
        Resource applied = last(f.drainResources());
        f.putDesired(TopologyFixture.desiredState(KEY, Map.of("replicas", 7L)));
        Resource changed = last(f.drainResources());

        assertThat(plain.getMetadata().getManagedFields()).isEmpty();
        assertThat(applied.getMetadata().getManagedFields()).extracting(ManagedFieldsEntry::getManager).contains("ci");
        assertThat(entry(changed, ManagedFields.TOPIC_MANAGER).getFieldsV1()).contains("f:replicas");
        assertThat(entry(changed, "ci")).isNull();
    }

    @Test
    void shouldChangeNothingWhenTheSameConfigurationIsAppliedAgain() {
        String config = "{\"spec\":{\"image\":\"nginx:1\"}}";
        f.putDesired(apply(config, "ci"), "a1");
        Resource first = last(f.drainResources());
        f.drainEvents();

        f.putDesired(apply(config, "ci"), "a2");

        assertThat(answer("a2").getReason()).isEqualTo("NoOp");
        assertThat(f.drainResources()).isEmpty();
        assertThat(first.getMetadata().getManagedFields()).hasSize(1);
    }

    @Test
    void shouldResetManagedFieldsWithAPatchOfOneEmptyEntry() {
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\"}}", "ci"), "a1");
        f.drainResources();

        f.putDesired(write(PatchType.JsonPatch, "[{\"op\":\"replace\",\"path\":\"/metadata/managedFields\",\"value\":[{}]}]",
            null, false), "p1");
        Resource r = last(f.drainResources());

        assertThat(r.getMetadata().getManagedFields()).isEmpty();
        assertThat(spec(r)).containsEntry("image", "nginx:1");
    }

    @Test
    void shouldRefuseAnApplyWithoutAManager() {
        f.putDesired(apply("{\"spec\":{\"image\":\"nginx:1\"}}", null), "a1");

        ReconcileEvent refused = answer("a1");

        assertThat(refused.getType()).isEqualTo(EventType.Invalid);
        assertThat(f.drainResources()).isEmpty();
        assertThat(List.of(refused.getMessage())).allSatisfy(m -> assertThat(m).contains("fieldManager"));
    }
}
