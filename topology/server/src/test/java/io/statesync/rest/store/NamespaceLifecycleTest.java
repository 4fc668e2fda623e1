package io.statesync.rest.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import io.statesync.avro.SyncStatus;
import io.statesync.rest.ApiError;
import io.statesync.topology.ResourceKey;
import io.statesync.view.StoredResource;
import io.statesync.topology.ResourceSummary;
import org.junit.jupiter.api.Test;

class NamespaceLifecycleTest {

    private final Map<String, StoredResource> stored = new HashMap<>();

    private void store(String key, SyncStatus status) {
        stored.put(key, StoredResource.of(key, new byte[4], new ResourceSummary(1, status, false), null));
    }

    private NamespaceLifecycle lifecycle(NamespaceLifecycle.Mode mode) {
        return new NamespaceLifecycle(mode, stored::get);
    }

    @Test
    void shouldRefuseACreateInATerminatingNamespaceAsKubernetesDoes() {
        store(NamespaceLifecycle.namespaceKey("team-a"), SyncStatus.Deleting);

        assertThatThrownBy(() -> lifecycle(NamespaceLifecycle.Mode.AUTO_PROVISION).admit(ResourceKey.parse("WebApp/team-a/shop")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(403);
                assertThat(e.reason()).isEqualTo("Forbidden");
                assertThat(e.getMessage()).isEqualTo("unable to create new content in namespace team-a because it is being terminated");
                assertThat(e.causes()).containsExactly(new ApiError.Cause("NamespaceTerminating",
                    "namespace team-a is being terminated", "metadata.namespace"));
            });
    }

    @Test
    void shouldLetAnExistingObjectInATerminatingNamespaceBeWrittenSoItsFinalizersCanGo() {
        store(NamespaceLifecycle.namespaceKey("team-a"), SyncStatus.Deleting);
        store("WebApp/team-a/shop", SyncStatus.Deleting);

        assertThatCode(() -> lifecycle(NamespaceLifecycle.Mode.ENFORCE).admit(ResourceKey.parse("WebApp/team-a/shop")))
            .doesNotThrowAnyException();
    }

    @Test
    void shouldAcceptAWriteIntoAMissingNamespaceWhenAutoProvisioning() {
        assertThatCode(() -> lifecycle(NamespaceLifecycle.Mode.AUTO_PROVISION).admit(ResourceKey.parse("WebApp/nowhere/shop")))
            .doesNotThrowAnyException();
    }

    @Test
    void shouldRefuseAWriteIntoAMissingNamespaceWhenEnforcing() {
        assertThatThrownBy(() -> lifecycle(NamespaceLifecycle.Mode.ENFORCE).admit(ResourceKey.parse("WebApp/nowhere/shop")))
            .isInstanceOfSatisfying(ApiError.class, e -> {
                assertThat(e.code()).isEqualTo(404);
                assertThat(e.getMessage()).isEqualTo("namespaces \"nowhere\" not found");
                assertThat(e.subject()).isEqualTo(new ApiError.Subject("", "namespaces", "nowhere"));
            });
    }

    @Test
    void shouldAcceptWritesIntoAnActiveNamespaceAndOfClusterScopedKeys() {
        store(NamespaceLifecycle.namespaceKey("team-a"), SyncStatus.Synced);
        NamespaceLifecycle enforce = lifecycle(NamespaceLifecycle.Mode.ENFORCE);

        assertThatCode(() -> enforce.admit(ResourceKey.parse("WebApp/team-a/shop"))).doesNotThrowAnyException();
        assertThatCode(() -> enforce.admit(ResourceKey.parse("Namespace.core//team-b"))).doesNotThrowAnyException();
    }

    @Test
    void shouldReadTheModeAsTheConfigurationWritesIt() {
        assertThat(NamespaceLifecycle.Mode.parse("enforce")).isEqualTo(NamespaceLifecycle.Mode.ENFORCE);
        assertThat(NamespaceLifecycle.Mode.parse("auto-provision")).isEqualTo(NamespaceLifecycle.Mode.AUTO_PROVISION);
    }
}
