package io.statesync.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.HealthRule;
import io.statesync.avro.HealthStatus;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.OwnerReference;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Owner references and the garbage collector on the real topology, one partition, under TopologyTestDriver. */
class OwnershipTopologyTest extends TopologyTestBase {

    static final String OWNER = "WebApp/default/shop";
    static final String DEPLOYMENT = "Deployment/default/shop-deploy";
    static final String SERVICE = "Service/default/shop-svc";
    static final Map<String, Object> SPEC = Map.of("image", "nginx:1.20");

    /** The newest Resource of each key published so far; a tombstone maps the key to null. */
    private final Map<String, Resource> published = new HashMap<>();

    private Map<String, Resource> publish() {
        for (KeyValue<String, Resource> kv : f.resources.readKeyValuesToList()) {
            published.put(kv.key, kv.value);
        }
        return published;
    }

    private String create(String key, OwnerReference... owners) {
        DesiredState d = TopologyFixture.desiredState(key, SPEC);
        d.setOwnerReferences(List.of(owners));
        f.putDesired(d);
        return publish().get(key).getMetadata().getUid();
    }

    private static OwnerReference ref(String ownerKey, String uid, boolean controller, boolean block) {
        ResourceKey k = ResourceKey.parse(ownerKey);
        return new OwnerReference("statesync.io/v1", k.kind(), k.name(), uid, controller, block);
    }

    /** An agent reports the key present, so its deletion waits for the agent to report it gone. */
    private void observePresent(String key, String uid) {
        f.observe(key, uid, 1, SPEC, null);
    }

    @Test
    void shouldDeleteDependentsAfterTheOwnerIsGoneUnderBackground() {
        String owner = create(OWNER);
        create(DEPLOYMENT, ref(OWNER, owner, true, true));
        create(SERVICE, ref(OWNER, owner, false, false));

        f.deleteDesired(OWNER, "Background");

        Map<String, Resource> now = publish();
        assertThat(now).containsEntry(OWNER, null).containsEntry(DEPLOYMENT, null).containsEntry(SERVICE, null);
        assertThat(f.metrics.registry().get("statesync_gc_collected_total").tag("policy", "Background").counter().count())
            .isEqualTo(2.0);
    }

    @Test
    void shouldKeepTheOwnerWithTheForegroundFinalizerUntilItsBlockingDependentsAreGone() {
        String owner = create(OWNER);
        String dep = create(DEPLOYMENT, ref(OWNER, owner, true, true));
        observePresent(DEPLOYMENT, dep);
        f.drainCorrections();

        f.deleteDesired(OWNER, "Foreground");

        Resource waiting = publish().get(OWNER);
        assertThat(waiting).isNotNull();
        assertThat(waiting.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(waiting.getMetadata().getFinalizers()).contains("foregroundDeletion");
        assertThat(published.get(DEPLOYMENT).getMetadata().getDeletionTimestamp()).isNotNull();
        List<Correction> cs = f.drainCorrections();
        assertThat(cs).anySatisfy(c -> {
            assertThat(c.getName()).isEqualTo("shop-deploy");
            assertThat(c.getAction()).isEqualTo(Action.DELETE);
        });
        assertThat(f.metrics.registry().get("statesync_gc_foreground_waiting").gauge().value()).isEqualTo(1.0);

        f.observe(DEPLOYMENT, dep, 1, null, cs.get(cs.size() - 1).getCommandId());

        assertThat(publish()).containsEntry(DEPLOYMENT, null).containsEntry(OWNER, null);
        assertThat(f.metrics.registry().get("statesync_gc_foreground_waiting").gauge().value()).isZero();
    }

    @Test
    void shouldGoAtOnceUnderForegroundWhenNoDependentBlocks() {
        String owner = create(OWNER);
        String dep = create(SERVICE, ref(OWNER, owner, false, false));
        observePresent(SERVICE, dep);

        f.deleteDesired(OWNER, "Foreground");

        assertThat(publish()).containsEntry(OWNER, null);
        assertThat(published.get(SERVICE).getMetadata().getDeletionTimestamp()).isNotNull();
    }

    @Test
    void shouldTakeTheOwnerOutOfItsDependentsUnderOrphan() {
        String owner = create(OWNER);
        String other = create("WebApp/default/other");
        create(DEPLOYMENT, ref(OWNER, owner, true, true), ref("WebApp/default/other", other, false, false));

        f.deleteDesired(OWNER, "Orphan");

        Map<String, Resource> now = publish();
        assertThat(now).containsEntry(OWNER, null);
        Resource orphan = now.get(DEPLOYMENT);
        assertThat(orphan).isNotNull();
        assertThat(orphan.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(orphan.getMetadata().getOwnerReferences()).extracting(OwnerReference::getName).containsExactly("other");
        assertThat(f.metrics.registry().get("statesync_gc_collected_total").tag("policy", "Orphan").counter().count())
            .isEqualTo(1.0);
    }

    @Test
    void shouldCollectADependentThatNamesAnotherUidThanTheOwners() {
        create(OWNER);

        DesiredState d = TopologyFixture.desiredState(DEPLOYMENT, SPEC);
        d.setOwnerReferences(List.of(ref(OWNER, "uid-of-an-earlier-shop", true, true)));

        f.putDesired(d);

        assertThat(publish()).containsEntry(DEPLOYMENT, null);
        assertThat(published.get(OWNER)).isNotNull();
    }

    @Test
    void shouldCollectADependentOfAnOwnerDeletedAndCreatedAgain() {
        String first = create(OWNER);
        String dep = create(DEPLOYMENT, ref(OWNER, first, true, true));
        observePresent(DEPLOYMENT, dep);
        f.deleteDesired(OWNER, "Orphan");
        create(OWNER);
        publish();
        assertThat(published.get(DEPLOYMENT).getMetadata().getOwnerReferences()).isEmpty();
        DesiredState again = TopologyFixture.desiredState(DEPLOYMENT, SPEC);
        again.setOwnerReferences(List.of(ref(OWNER, first, true, true)));

        f.putDesired(again);

        assertThat(publish().get(DEPLOYMENT).getMetadata().getDeletionTimestamp()).isNotNull();
    }

    @Test
    void shouldIgnoreACommandForAnOwnerTheDependentNoLongerNames() {
        String owner = create(OWNER);
        create(DEPLOYMENT, ref(OWNER, owner, true, true));
        var collect = f.driver.createInputTopic(f.topics.collect(), new StringSerializer(), new ByteArraySerializer());

        collect.pipeInput(DEPLOYMENT, String.join("\t", "DELETE", "Background", OWNER, "uid-of-an-earlier-shop")
            .getBytes(StandardCharsets.UTF_8));
        collect.pipeInput(DEPLOYMENT, String.join("\t", "DELETE", "Background", "WebApp/default/other", owner)
            .getBytes(StandardCharsets.UTF_8));

        assertThat(publish().get(DEPLOYMENT).getMetadata().getDeletionTimestamp()).isNull();
        assertThat(f.metrics.registry().get("statesync_gc_commands_processed_total").tag("result", "ignored").counter()
            .count()).isEqualTo(2.0);
    }

    @Test
    void shouldKeepADependentWhoseOwnerExists() {
        String owner = create(OWNER);
        create(DEPLOYMENT, ref(OWNER, owner, true, true));

        f.putDesired(TopologyFixture.desiredState(OWNER, Map.of("image", "nginx:1.21")));

        assertThat(publish().get(DEPLOYMENT)).isNotNull();
        assertThat(published.get(DEPLOYMENT).getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void shouldRefuseTwoControllersAsInvalid() {
        String owner = create(OWNER);
        String other = create("WebApp/default/other");
        f.drainEvents();
        DesiredState d = TopologyFixture.desiredState(DEPLOYMENT, SPEC);
        d.setOwnerReferences(List.of(ref(OWNER, owner, true, true), ref("WebApp/default/other", other, true, false)));

        f.putDesired(d, "req-1");

        List<ReconcileEvent> events = f.drainEvents();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo(EventType.Invalid);
            assertThat(e.getReason()).isEqualTo(WriteAdmission.INVALID_OWNER_REFERENCES);
            assertThat(e.getMessage()).contains("only one reference can have controller");
        });
        assertThat(publish()).doesNotContainKey(DEPLOYMENT);
    }

    @Test
    void shouldCountAWriteThatOnlyChangesOwnerReferencesAsAMetadataChange() {
        String owner = create(OWNER);
        create(DEPLOYMENT);
        DesiredState d = TopologyFixture.desiredState(DEPLOYMENT, SPEC);
        d.setOwnerReferences(List.of(ref(OWNER, owner, true, true)));

        f.putDesired(d);

        Resource r = publish().get(DEPLOYMENT);
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getMetadata().getOwnerReferences()).hasSize(1);
    }

    @Test
    void shouldJudgeTheOwnersHealthFromItsChildrenAsTheirStatusTravelsOnTheIndex() {
        f.kinds.pipeInput("WebApp", KindPolicy.newBuilder().setKind("WebApp").setHealthRules(List.of(
            new HealthRule(HealthStatus.Progressing, "children.exists(c, c.health != 'Healthy')", "children not ready"),
            new HealthRule(HealthStatus.Healthy, "size(children) > 0", "every child healthy"))).build());
        f.kinds.pipeInput("Deployment", KindPolicy.newBuilder().setKind("Deployment").setHealthRules(List.of(
            new HealthRule(HealthStatus.Healthy, "observed.status.readyReplicas >= desired.replicas", "ready"),
            new HealthRule(HealthStatus.Progressing, "true", "starting"))).build());
        String owner = create(OWNER);
        f.observe(OWNER, owner, 1, SPEC, null);
        DesiredState d = TopologyFixture.desiredState(DEPLOYMENT, Map.of("replicas", 2L));
        d.setOwnerReferences(List.of(ref(OWNER, owner, true, true)));
        f.putDesired(d);
        String dep = publish().get(DEPLOYMENT).getMetadata().getUid();

        observeReady(DEPLOYMENT, dep, 1);
        HealthStatus starting = publish().get(OWNER).getStatus().getHealth().getStatus();
        observeReady(DEPLOYMENT, dep, 2);
        HealthStatus ready = publish().get(OWNER).getStatus().getHealth().getStatus();

        assertThat(starting).isEqualTo(HealthStatus.Progressing);
        assertThat(ready).isEqualTo(HealthStatus.Healthy);
    }

    private void observeReady(String key, String uid, long ready) {
        ResourceKey rk = ResourceKey.parse(key);
        f.advance(java.time.Duration.ofMillis(10));
        f.observed.pipeInput(key, ObservedState.newBuilder().setKind(rk.kind()).setNamespace(rk.namespace())
            .setName(rk.name()).setUid(uid).setObservedGeneration(1).setState(TopologyFixture.spec(Map.of("replicas", 2L)))
            .setStatus(TopologyFixture.spec(Map.of("readyReplicas", ready))).setObservedAt(f.now()).setReporter("test")
            .build(), f.now());
    }
}
