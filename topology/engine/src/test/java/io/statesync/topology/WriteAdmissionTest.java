package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.PatchType;
import io.statesync.avro.Resource;
import io.statesync.avro.WritePatch;
import io.statesync.reconciler.AdmissionOutcome;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.reconciler.ValidationRule;
import io.statesync.reconciler.ValidationRules;
import org.junit.jupiter.api.Test;

/** The admission rules of one write as pure functions: no topology, no store, no broker. */
class WriteAdmissionTest {

    private static final String KEY = "WebApp/default/shop";
    private static final ReconcilePolicy DEFAULTS = ReconcilePolicy.defaults();

    private static DesiredState spec(Map<String, ?> spec) {
        return TopologyFixture.desiredState(KEY, spec);
    }

    /** The object admission stores for {@code d} on an empty key, at {@code version}. */
    private static Resource stored(DesiredState d, String version) {
        Resource r = WriteAdmission.admitted(null, (WriteAdmission.Accepted) WriteAdmission.decide(null, d, DEFAULTS), 0);
        r.getMetadata().setResourceVersion(version);
        return r;
    }

    private static WriteAdmission.Refused refused(WriteAdmission.Decision d) {
        assertThat(d).isInstanceOf(WriteAdmission.Refused.class);
        return (WriteAdmission.Refused) d;
    }

    private static AdmissionOutcome outcome(WriteAdmission.Decision d) {
        assertThat(d).isInstanceOf(WriteAdmission.Accepted.class);
        return ((WriteAdmission.Accepted) d).outcome();
    }

    @Test
    void shouldCreateAtGenerationOneAndBumpTheGenerationOnlyWhenTheSpecChanges() {
        Resource current = stored(spec(Map.of("replicas", 1)), "7");
        DesiredState labelled = spec(Map.of("replicas", 1));
        labelled.setLabels(Map.of("team", "a"));

        assertThat(outcome(WriteAdmission.decide(null, spec(Map.of("replicas", 1)), DEFAULTS)))
            .isEqualTo(new AdmissionOutcome.Created(1));
        assertThat(outcome(WriteAdmission.decide(current, spec(Map.of("replicas", 1)), DEFAULTS)))
            .isInstanceOf(AdmissionOutcome.NoOp.class);
        assertThat(outcome(WriteAdmission.decide(current, labelled, DEFAULTS)))
            .isEqualTo(new AdmissionOutcome.MetadataChanged(1));
        assertThat(outcome(WriteAdmission.decide(current, spec(Map.of("replicas", 2)), DEFAULTS)))
            .isEqualTo(new AdmissionOutcome.SpecChanged(2));
    }

    @Test
    void shouldRefuseAnExpectedVersionThatIsNotTheCurrentOneAsAConflictAndAcceptTheCurrentOne() {
        Resource current = stored(spec(Map.of("replicas", 1)), "7");
        DesiredState stale = spec(Map.of("replicas", 2));
        stale.setExpectedResourceVersion("6");
        DesiredState fresh = spec(Map.of("replicas", 2));
        fresh.setExpectedResourceVersion("7");

        WriteAdmission.Refused r = refused(WriteAdmission.decide(current, stale, DEFAULTS));
        assertThat(r.type()).isEqualTo(EventType.Conflict);
        assertThat(r.reason()).isEqualTo(WriteAdmission.RESOURCE_VERSION_MISMATCH);
        assertThat(r.message()).contains("6").contains("7");
        assertThat(outcome(WriteAdmission.decide(current, fresh, DEFAULTS))).isInstanceOf(AdmissionOutcome.SpecChanged.class);
        assertThat(WriteAdmission.decideDelete(current, KEY, "6").reason()).isEqualTo(WriteAdmission.RESOURCE_VERSION_MISMATCH);
        assertThat(WriteAdmission.decideDelete(current, KEY, "7")).isNull();
        assertThat(WriteAdmission.decideDelete(null, KEY, null).reason()).isEqualTo(WriteAdmission.NOT_FOUND);
    }

    @Test
    void shouldRefuseACreateOnlyWriteOfAnExistingNameAndAPatchOfAMissingOne() {
        Resource current = stored(spec(Map.of()), "3");
        DesiredState create = spec(Map.of());
        create.setCreateOnly(true);
        DesiredState patch = DesiredState.newBuilder(spec(Map.of()))
            .setPatch(new WritePatch(PatchType.MergePatch, "{\"spec\":{\"a\":1}}")).build();

        assertThat(refused(WriteAdmission.decide(current, create, DEFAULTS)).reason()).isEqualTo(WriteAdmission.ALREADY_EXISTS);
        assertThat(refused(WriteAdmission.decide(null, patch, DEFAULTS)).reason()).isEqualTo(WriteAdmission.NOT_FOUND);
    }

    @Test
    void shouldApplyAPatchToTheStoredObjectAndBoundItsOperations() {
        Resource current = stored(spec(Map.of("replicas", 1, "image", "nginx")), "3");
        DesiredState merge = DesiredState.newBuilder(spec(Map.of()))
            .setPatch(new WritePatch(PatchType.MergePatch, "{\"spec\":{\"replicas\":4}}")).build();
        DesiredState threeOps = DesiredState.newBuilder(spec(Map.of())).setPatch(new WritePatch(PatchType.JsonPatch,
            "[{\"op\":\"add\",\"path\":\"/spec/a\",\"value\":1},{\"op\":\"add\",\"path\":\"/spec/b\",\"value\":1},"
                + "{\"op\":\"add\",\"path\":\"/spec/c\",\"value\":1}]")).build();

        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(current, merge, DEFAULTS);
        assertThat(a.effective().getPatch()).isNull();
        assertThat(a.effective().getSpec().toString()).contains("nginx").contains("4");
        assertThat(refused(WriteAdmission.decide(current, threeOps, DEFAULTS, new WriteAdmission.Limits(1_048_576, 64, 2)))
            .reason()).isEqualTo(WriteAdmission.PATCH_TOO_LARGE);
    }

    @Test
    void shouldRefuseOwnerReferencesWithTwoControllers() {
        DesiredState d = spec(Map.of());
        d.setOwnerReferences(List.of(new OwnerReference("statesync.io/v1", "App", "a", "u1", true, false),
            new OwnerReference("statesync.io/v1", "App", "b", "u2", true, false)));

        assertThat(refused(WriteAdmission.decide(null, d, DEFAULTS)).reason()).isEqualTo(WriteAdmission.INVALID_OWNER_REFERENCES);
    }

    @Test
    void shouldRunTheKindsValidationRulesOnANewSpecOnlyAndNotOnAMetadataEdit() {
        Resource current = stored(spec(Map.of("replicas", 20)), "3");
        ReconcilePolicy policy = DEFAULTS.toBuilder().validationRules(ValidationRules.compile(List.of(
            new ValidationRule("self.replicas <= 10", "at most 10 replicas", "replicas")))).build();
        DesiredState labelled = spec(Map.of("replicas", 20));
        labelled.setLabels(Map.of("team", "a"));

        assertThat(refused(WriteAdmission.decide(null, spec(Map.of("replicas", 11)), policy)).reason())
            .isEqualTo(WriteAdmission.VALIDATION_FAILED);
        assertThat(outcome(WriteAdmission.decide(current, labelled, policy))).isInstanceOf(AdmissionOutcome.MetadataChanged.class);
    }

    @Test
    void shouldAllowOnlyMetadataChangesWhileTheObjectIsBeingDeleted() {
        Resource current = stored(spec(Map.of("replicas", 1)), "3");
        current.getMetadata().setDeletionTimestamp(Instant.EPOCH);
        DesiredState noFinalizers = spec(Map.of("replicas", 1));

        assertThat(refused(WriteAdmission.decide(current, spec(Map.of("replicas", 2)), DEFAULTS)).reason())
            .isEqualTo(WriteAdmission.INVALID);
        assertThat(outcome(WriteAdmission.decide(current, noFinalizers, DEFAULTS))).isNotInstanceOf(AdmissionOutcome.SpecChanged.class);
    }

    @Test
    void shouldKeepTheUidAndCreationTimeAndTakeTheNewGenerationWhenAdmitted() {
        Resource current = stored(spec(Map.of("replicas", 1)), "3");
        WriteAdmission.Accepted a = (WriteAdmission.Accepted) WriteAdmission.decide(current, spec(Map.of("replicas", 2)), DEFAULTS);

        Resource after = WriteAdmission.admitted(current, a, 99);

        assertThat(after.getMetadata().getUid()).isEqualTo(current.getMetadata().getUid());
        assertThat(after.getMetadata().getCreationTimestamp()).isEqualTo(current.getMetadata().getCreationTimestamp());
        assertThat(after.getMetadata().getGeneration()).isEqualTo(2);
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo("3");
        assertThat(after.getStatus()).isSameAs(current.getStatus());
    }
}
