package io.statesync.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.PatchType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.ValidationRule;
import io.statesync.avro.WritePatch;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kind's CEL validation rules, applied by admission in the real topology under TopologyTestDriver. */
class ValidationAdmissionTest extends TopologyTestBase {

    static final String KEY = "WebApp/default/shop";

    @BeforeEach
    void policy() {
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setValidationRules(List.of(
            new ValidationRule("self.replicas <= 10", "at most 10 replicas", "replicas"),
            new ValidationRule("self.image.startsWith('nginx')", "only nginx images", "image"),
            new ValidationRule("self.replicas >= oldSelf.replicas", "replicas may not shrink", "replicas"))).build());
    }

    private void write(Map<String, Object> spec, String requestId) {
        DesiredState d = TopologyFixture.desiredState(KEY, spec);
        if (requestId == null) {
            f.putDesired(d);
        } else {
            f.putDesired(d, requestId);
        }
    }

    private ReconcileEvent invalid() {
        return f.drainEvents().stream().filter(e -> e.getType() == EventType.Invalid).findFirst().orElseThrow();
    }

    @Test
    void shouldRefuseASpecThatBreaksRulesWithEveryMessageAndStoreNothing() {
        write(Map.of("image", "httpd", "replicas", 30L), "r1");

        ReconcileEvent e = invalid();
        assertThat(e.getReason()).isEqualTo(WriteAdmission.VALIDATION_FAILED);
        assertThat(e.getRequestId()).isEqualTo("r1");
        assertThat(e.getMessage()).isEqualTo("spec.replicas: at most 10 replicas; spec.image: only nginx images");
        assertThat(f.drainResources()).isEmpty();
        assertThat(f.drainCorrections()).isEmpty();
    }

    @Test
    void shouldEvaluateTransitionRulesOnlyOnUpdate() {
        write(Map.of("image", "nginx:1", "replicas", 5L), "r1");
        assertThat(f.drainEvents()).extracting(ReconcileEvent::getType).contains(EventType.Accepted);
        f.drainResources();

        write(Map.of("image", "nginx:1", "replicas", 3L), "r2");
        assertThat(invalid().getMessage()).isEqualTo("spec.replicas: replicas may not shrink");
        assertThat(f.drainResources()).isEmpty();

        write(Map.of("image", "nginx:1", "replicas", 6L), "r3");
        Resource r = last(f.drainResources());
        assertThat(Values.toJava(r.getSpec())).isEqualTo(Map.of("image", "nginx:1", "replicas", 6L));
        assertThat(r.getMetadata().getGeneration()).isEqualTo(2);
    }

    @Test
    void shouldRefuseAPatchWhoseResultBreaksARule() {
        write(Map.of("image", "nginx:1", "replicas", 5L), "r1");
        f.drainEvents();
        f.drainResources();

        f.putDesired(DesiredState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setPatch(new WritePatch(PatchType.MergePatch, "{\"spec\":{\"image\":\"httpd\"}}")).build(), "p1");

        assertThat(invalid().getMessage()).isEqualTo("spec.image: only nginx images");
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldAnnounceARefusalEvenWithoutARequestId() {
        write(Map.of("image", "nginx:1", "replicas", 11L), null);

        ReconcileEvent e = invalid();
        assertThat(e.getRequestId()).isNull();
        assertThat(e.getReason()).isEqualTo(WriteAdmission.VALIDATION_FAILED);
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldRefuseASpecWhoseRuleExceedsTheCostLimit() {
        String range = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setValidationRules(List.of(new ValidationRule(
            range + ".all(a, " + range + ".all(b, " + range + ".all(c, " + range + ".all(d, " + range + ".all(e, true)))))",
            "", ""))).build());

        write(Map.of("image", "nginx:1", "replicas", 1L), "r1");

        assertThat(invalid().getMessage()).contains("cost limit exceeded");
        assertThat(f.drainResources()).isEmpty();
    }

    @Test
    void shouldLetAMetadataOnlyWriteThroughWhateverTheRules() {
        write(Map.of("image", "nginx:1", "replicas", 5L), "r1");
        f.drainEvents();
        f.drainResources();
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setValidationRules(List.of(
            new ValidationRule("self.replicas > 100", "", ""))).build());

        f.putDesired(DesiredState.newBuilder(TopologyFixture.desiredState(KEY, Map.of("image", "nginx:1", "replicas", 5L)))
            .setLabels(Map.of("team", "web")).build(), "r2");

        assertThat(last(f.drainResources()).getMetadata().getLabels()).containsEntry("team", "web");
    }

    @Test
    void shouldRefuseWritesRetryablyWhileTheKindsPolicyDoesNotDecodeAndNeverFallBackToTheDefaults() {
        var raw = f.driver.createInputTopic(f.topics.kinds(), new org.apache.kafka.common.serialization.StringSerializer(),
            new org.apache.kafka.common.serialization.ByteArraySerializer());
        raw.pipeInput("WebApp", new byte[] {0, 0x7f, (byte) 0xf0, 0, 1, 1, 2, 3});

        write(Map.of("image", "httpd", "replicas", 30L), "r1");
        ReconcileEvent first = invalid();
        write(Map.of("image", "httpd", "replicas", 30L), "r2");
        ReconcileEvent second = invalid();

        assertThat(first.getReason()).isEqualTo(WriteAdmission.POLICY_UNAVAILABLE);
        assertThat(first.getMessage()).contains("the policy of kind WebApp is stored but does not decode");
        assertThat(second.getReason()).as("not cached as the defaults").isEqualTo(WriteAdmission.POLICY_UNAVAILABLE);
        assertThat(f.drainResources()).isEmpty();

        policy();
        write(Map.of("image", "httpd", "replicas", 30L), "r3");
        assertThat(invalid().getReason()).as("a good policy replaces the bad one").isEqualTo(WriteAdmission.VALIDATION_FAILED);
    }
}
