package io.statesync.view;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Also the encoding helpers of other tests of the view. */
public class StoredResourceTest {

    private final AtomicInteger decodes = new AtomicInteger();
    private final StoredResource.Decoder decoder = bytes -> {
        decodes.incrementAndGet();
        try {
            return Resource.getDecoder().decode(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @Test
    void shouldDecodeAnEqualNewObjectOnEveryRead() {
        Resource original = resource("WebApp", "shop", "cart", "42", SyncStatus.Synced, Map.of("app", "cart"));
        StoredResource stored = store(original);
        Resource first = stored.resource();
        Resource second = stored.resource();
        assertThat(first).isEqualTo(original).isNotSameAs(second);
        assertThat(second).isEqualTo(original);
    }

    @Test
    void shouldAnswerVersionStatusAndLabelsWithoutDecoding() {
        StoredResource stored = store(resource("WebApp", "shop", "cart", "42", SyncStatus.OutOfSync, Map.of("a", "b")));
        decodes.set(0);
        assertThat(stored.version()).isEqualTo(42);
        assertThat(stored.resourceVersion()).isEqualTo("42");
        assertThat(stored.syncStatus()).isEqualTo(SyncStatus.OutOfSync);
        assertThat(stored.hasLabels()).isTrue();
        assertThat(decodes).hasValue(0);
    }

    @Test
    void shouldTellKindAndNamespaceFromTheKeyExactly() {
        StoredResource stored = store(resource("WebApp", "shop", "cart", "1", SyncStatus.Synced, Map.of()));
        assertThat(stored.isKind("WebApp")).isTrue();
        assertThat(stored.isKind("Web")).isFalse();
        assertThat(stored.isKind("WebApps")).isFalse();
        assertThat(stored.isInNamespace("shop")).isTrue();
        assertThat(stored.isInNamespace("sho")).isFalse();
        assertThat(stored.isInNamespace("shops")).isFalse();
        assertThat(stored.isInNamespace("cart")).isFalse();
    }

    @Test
    void shouldReadAnAbsentKeyAsAnObjectWithOnlyItsName() {
        StoredResource absent = StoredResource.absent("WebApp/shop/gone");
        assertThat(absent.resourceVersion()).isNull();
        assertThat(absent.version()).isEqualTo(-1);
        assertThat(absent.resource().getMetadata().getName()).isEqualTo("gone");
        assertThat(absent.resource().getMetadata().getKind()).isEqualTo("WebApp");
    }

    private StoredResource store(Resource r) {
        byte[] bytes = encode(r);
        String key = r.getMetadata().getKind() + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
        return StoredResource.of(key, bytes, ResourceSummary.of(decoder.apply(bytes)), decoder);
    }

    public static byte[] encode(Resource r) {
        try {
            ByteBuffer buf = Resource.getEncoder().encode(r);
            byte[] out = new byte[buf.remaining()];
            buf.get(out);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Resource resource(String kind, String ns, String name, String version, SyncStatus status,
                                    Map<String, String> labels) {
        return Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind(kind).setNamespace(ns).setName(name)
                .setResourceVersion(version).setLabels(labels).build())
            .setStatus(ResourceStatus.newBuilder().setSyncStatus(status).build()).build();
    }
}
