package io.statesync.rest.internal;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import io.statesync.view.StoredResourceTest;
import org.junit.jupiter.api.Test;

import static io.statesync.view.StoredResourceTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

/** The list and watch filter ({@link ResourceApi#filter}) on the view's stored resources. */
class ResourceFilterTest {

    private final AtomicInteger decodes = new AtomicInteger();
    private final StoredResource.Decoder decoder = bytes -> {
        decodes.incrementAndGet();
        try {
            return Resource.getDecoder().decode(bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    };

    @Test
    void shouldFilterOnStoredFieldsAndDecodeOnlyForALabelSelector() {
        StoredResource synced = store(resource("WebApp", "shop", "a", "1", SyncStatus.Synced, Map.of("tier", "web")));
        StoredResource drifted = store(resource("WebApp", "shop", "b", "2", SyncStatus.OutOfSync, Map.of()));
        StoredResource other = store(resource("Queue", "shop", "c", "3", SyncStatus.Synced, Map.of()));
        decodes.set(0);
        Predicate<StoredResource> syncedWebApps = ResourceApi.filter("WebApp", "shop", null, "Synced");
        assertThat(syncedWebApps.test(synced)).isTrue();
        assertThat(syncedWebApps.test(drifted)).isFalse();
        assertThat(syncedWebApps.test(other)).isFalse();
        assertThat(decodes).as("no label selector, no decode").hasValue(0);

        Predicate<StoredResource> webTier = ResourceApi.filter(null, null, "tier=web", null);
        assertThat(webTier.test(synced)).isTrue();
        assertThat(webTier.test(drifted)).isFalse();
        assertThat(decodes).as("only the labelled object is decoded").hasValue(1);
        assertThat(ResourceApi.filter(null, null, "tier!=web", null).test(drifted)).isTrue();
    }

    private StoredResource store(Resource r) {
        byte[] bytes = StoredResourceTest.encode(r);
        String key = r.getMetadata().getKind() + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
        return StoredResource.of(key, bytes, ResourceSummary.of(decoder.apply(bytes)), decoder);
    }
}
