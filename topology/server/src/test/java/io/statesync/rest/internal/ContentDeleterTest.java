package io.statesync.rest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.rest.ApiError;
import io.statesync.rest.store.AdmissionTransport;
import io.statesync.server.ServerConfig;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import io.statesync.view.StoredResourceTest;
import org.junit.jupiter.api.Test;

/** One round of the content deleter over an index held in a map: what it deletes, what it waits for, when it releases. */
class ContentDeleterTest {

    private final TreeMap<String, StoredResource> index = new TreeMap<>();
    private final List<List<String>> deleteBatches = new ArrayList<>();
    private final List<String> released = new ArrayList<>();
    private boolean refuseRelease;
    private boolean refuseDeletes;

    private ContentDeleter deleter(int maxItems, long maxBytes) {
        AppConfig config = new AppConfig(Map.of(ServerConfig.NAMESPACE_DELETION_BATCH_MAX_ITEMS, maxItems,
            ServerConfig.NAMESPACE_DELETION_BATCH_MAX_BYTES, maxBytes));
        return new ContentDeleter(config, new ContentDeleter.Index() {
            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public Iterable<String> kinds() {
                List<String> kinds = new ArrayList<>();
                index.keySet().forEach(k -> {
                    String kind = k.substring(0, k.indexOf('/'));
                    if (!kinds.contains(kind)) {
                        kinds.add(kind);
                    }
                });
                return kinds;
            }

            @Override
            public List<StoredResource> withKeyPrefix(String prefix) {
                return new ArrayList<>(index.subMap(prefix, prefix + Character.MAX_VALUE).values());
            }
        }, new ContentDeleter.Writes() {
            @Override
            public void deleteAll(List<AdmissionTransport.Submission> deletes) {
                if (refuseDeletes) {
                    throw ApiError.unavailable("admission is not ready", 1);
                }
                List<String> keys = new ArrayList<>();
                deletes.forEach(d -> {
                    assertThat(d.desired()).isNull();
                    assertThat(d.propagationPolicy()).isEqualTo("Background");
                    keys.add(d.key());
                });
                deleteBatches.add(keys);
            }

            @Override
            public void write(ResourceKey key, DesiredState desired) {
                if (refuseRelease) {
                    throw ApiError.conflict("changed", "9");
                }
                assertThat(desired.getPatch().getDocument()).isEqualTo("{\"metadata\":{\"finalizers\":[\"example.com/keep\"]}}");
                assertThat(desired.getExpectedResourceVersion()).isEqualTo("7");
                released.add(key.toString());
            }
        });
    }

    private void put(String key, SyncStatus status, List<String> finalizers, int bytes) {
        ResourceKey k = ResourceKey.parse(key);
        Resource r = StoredResourceTest.resource(k.kind(), k.namespace(), k.name(), "7", status, Map.of());
        r.getMetadata().setFinalizers(finalizers);
        index.put(key, StoredResource.of(key, new byte[bytes], new ResourceSummary(7, status, false), b -> r));
    }

    private void namespace(String name, SyncStatus status) {
        put("Namespace.core//" + name, status, List.of("kubernetes", "example.com/keep"), 10);
    }

    @Test
    void shouldDeleteTheObjectsOfADeletedNamespaceOfEveryKindAndLeaveOtherNamespacesAlone() {
        namespace("gone", SyncStatus.Deleting);
        namespace("kept", SyncStatus.Synced);
        put("WebApp/gone/a", SyncStatus.Synced, List.of(), 10);
        put("Widget.example.com/gone/b", SyncStatus.OutOfSync, List.of(), 10);
        put("WebApp/kept/c", SyncStatus.Synced, List.of(), 10);
        put("WebApp/gone-too/d", SyncStatus.Synced, List.of(), 10);

        ContentDeleter.Round round = deleter(100, 1 << 20).round();

        assertThat(deleteBatches).containsExactly(List.of("WebApp/gone/a", "Widget.example.com/gone/b"));
        assertThat(round).isEqualTo(new ContentDeleter.Round(2, 0));
        assertThat(released).as("not released while anything is left").isEmpty();
    }

    @Test
    void shouldDeleteEveryObjectOfADeletedDefinitionsKindInEveryNamespaceThenReleaseTheDefinition() {
        String crd = "CustomResourceDefinition.apiextensions.k8s.io//widgets.example.com";
        put(crd, SyncStatus.Deleting, List.of("customresourcecleanup.apiextensions.k8s.io", "example.com/keep"), 10);
        index.get(crd).resource().setSpec(io.statesync.schemas.Values.fromJava(Map.of("group", "example.com",
            "names", Map.of("kind", "Widget", "plural", "widgets"))));
        put("Widget.example.com/a/w1", SyncStatus.Synced, List.of(), 10);
        put("Widget.example.com/b/w2", SyncStatus.Stalled, List.of(), 10);
        put("Widget.example.comx/a/other", SyncStatus.Synced, List.of(), 10);
        put("Gadget.example.com/a/g", SyncStatus.Synced, List.of(), 10);

        ContentDeleter.Round first = deleter(100, 1 << 20).round();
        index.remove("Widget.example.com/a/w1");
        index.remove("Widget.example.com/b/w2");
        ContentDeleter.Round second = deleter(100, 1 << 20).round();

        assertThat(deleteBatches).containsExactly(List.of("Widget.example.com/a/w1", "Widget.example.com/b/w2"));
        assertThat(first).isEqualTo(new ContentDeleter.Round(2, 0));
        assertThat(second).isEqualTo(new ContentDeleter.Round(0, 1));
        assertThat(released).containsExactly(crd);
    }

    @Test
    void shouldWaitForWhatIsBeingDeletedWithoutDeletingItAgainThenReleaseTheEmptyNamespace() {
        namespace("gone", SyncStatus.Deleting);
        put("WebApp/gone/held", SyncStatus.Deleting, List.of("example.com/hold"), 10);

        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(0, 0));
        index.remove("WebApp/gone/held");
        put("WebApp/gone/orphan", SyncStatus.Orphaned, List.of(), 10);

        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(0, 1));
        assertThat(released).containsExactly("Namespace.core//gone");
        assertThat(deleteBatches).isEmpty();
    }

    @Test
    void shouldHoldEachRoundToItsCountAndBytesTheFirstAlwaysFitting() {
        namespace("gone", SyncStatus.Deleting);
        for (int i = 0; i < 10; i++) {
            put("WebApp/gone/o-" + i, SyncStatus.Synced, List.of(), 50_000);
        }

        assertThat(deleter(3, 1 << 20).round().deletes()).isEqualTo(3);
        assertThat(deleter(100, 120_000).round().deletes()).as("by bytes: two of fifty thousand").isEqualTo(2);
        index.put("WebApp/gone/a-big", StoredResource.of("WebApp/gone/a-big", new byte[100_000],
            new ResourceSummary(7, SyncStatus.Synced, false), null));
        assertThat(deleter(100, 65_536).round().deletes()).as("the first fits whatever its size").isEqualTo(1);
    }

    @Test
    void shouldLeaveANamespaceForTheNextRoundWhenItsReleaseIsRefused() {
        namespace("gone", SyncStatus.Deleting);
        refuseRelease = true;

        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(0, 0));
    }

    @Test
    void shouldNotReleaseAgainANamespaceThatOnlyAnotherFinalizerHolds() {
        put("Namespace.core//gone", SyncStatus.Deleting, List.of("example.com/keep"), 10);

        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(0, 0));
        assertThat(released).isEmpty();
    }

    @Test
    void shouldTryAgainNextRoundWhenNoDeleteCanBeSubmitted() {
        namespace("gone", SyncStatus.Deleting);
        put("WebApp/gone/a", SyncStatus.Synced, List.of(), 10);
        refuseDeletes = true;

        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(0, 0));
        refuseDeletes = false;
        assertThat(deleter(100, 1 << 20).round()).isEqualTo(new ContentDeleter.Round(1, 0));
    }
}
