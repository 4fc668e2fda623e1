package io.statesync.reconciler;

import static io.statesync.reconciler.Trees.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GenerationRulesTest {
    private static final Object SPEC = map("image", "nginx:1.20", "replicas", 2);
    private static final StoredSpec STORED = new StoredSpec(SPEC, Map.of("app", "shop"), Map.of(),
            List.of("statesync.io/cleanup", "other"), 4);

    @Test
    void shouldStartAtGenerationOne() {
        assertThat(GenerationRules.admit(null, IncomingSpec.of(SPEC))).isEqualTo(new AdmissionOutcome.Created(1));
    }

    @Test
    void shouldBumpTheGenerationWhenTheSpecChanges() {
        IncomingSpec incoming = new IncomingSpec(map("image", "nginx:1.21", "replicas", 2), Map.of("app", "shop"),
                Map.of(), STORED.finalizers());

        assertThat(GenerationRules.admit(STORED, incoming)).isEqualTo(new AdmissionOutcome.SpecChanged(5));
    }

    @Test
    void shouldNotBumpTheGenerationForMetadataOnlyChanges() {
        IncomingSpec labels = new IncomingSpec(SPEC, Map.of("app", "shop", "tier", "web"), Map.of(), STORED.finalizers());
        IncomingSpec annotations = new IncomingSpec(SPEC, Map.of("app", "shop"), Map.of("note", "x"), STORED.finalizers());
        IncomingSpec finalizers = new IncomingSpec(SPEC, Map.of("app", "shop"), Map.of(), List.of());

        assertThat(List.of(labels, annotations, finalizers)).allSatisfy(in ->
                assertThat(GenerationRules.admit(STORED, in)).isEqualTo(new AdmissionOutcome.MetadataChanged(4)));
    }

    @Test
    void shouldTreatAnIdenticalResendAsNoOp() {
        IncomingSpec same = new IncomingSpec(map("replicas", 2.0, "image", "nginx:1.20"), Map.of("app", "shop"), null,
                List.of("other", "statesync.io/cleanup"));

        AdmissionOutcome outcome = GenerationRules.admit(STORED, same);

        assertThat(outcome).isEqualTo(new AdmissionOutcome.NoOp(4));
        assertThat(outcome.changesResource()).isFalse();
    }

    @Test
    void shouldBumpForAnIntResentAsADoubleOnlyUnderStrictTyping() {
        IncomingSpec asDouble = new IncomingSpec(map("image", "nginx:1.20", "replicas", 2.0), Map.of("app", "shop"),
                Map.of(), STORED.finalizers());

        assertThat(GenerationRules.admit(STORED, asDouble, true)).isEqualTo(new AdmissionOutcome.SpecChanged(5));
    }

    @Test
    void shouldRemoveOnlyThePolicysFinalizersOnObservedDeletion() {
        ReconcilePolicy policy = ReconcilePolicy.builder().finalizers(List.of("statesync.io/cleanup")).build();

        assertThat(GenerationRules.finalizersAfterObservedDeletion(STORED.finalizers(), policy))
                .containsExactly("other");
    }
}
