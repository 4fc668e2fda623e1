package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RenderedJsonCacheTest {

    private final AtomicInteger renders = new AtomicInteger();
    private final RenderedJsonCache cache = new RenderedJsonCache(4, r -> {
        renders.incrementAndGet();
        return (r.getMetadata().getName() + "@" + r.getMetadata().getResourceVersion()).getBytes(StandardCharsets.UTF_8);
    });

    @Test
    void shouldRenderAnUnchangedObjectOnlyOnce() {
        Resource r = resource("a", "7");
        byte[] first = cache.json("k/a", r);
        assertThat(cache.json("k/a", resource("a", "7"))).isSameAs(first);
        assertThat(renders).hasValue(1);
    }

    @Test
    void shouldRenderAgainWhenTheVersionChanges() {
        cache.json("k/a", resource("a", "7"));
        assertThat(new String(cache.json("k/a", resource("a", "8")), StandardCharsets.UTF_8)).isEqualTo("a@8");
        assertThat(renders).hasValue(2);
    }

    @Test
    void shouldNeverServeAnotherKeysJsonFromASharedSlot() {
        for (int i = 0; i < 50; i++) {
            String name = "n" + i;
            assertThat(new String(cache.json("k/" + name, resource(name, "1")), StandardCharsets.UTF_8)).isEqualTo(name + "@1");
        }
        assertThat(renders).hasValue(50);
    }

    @Test
    void shouldKeepTwoKeysOfOneSlotBothCached() {
        String first = "k/0";
        String second = null;
        for (int i = 1; second == null; i++) {
            if (cache.slotOf("k/" + i) == cache.slotOf(first)) {
                second = "k/" + i;
            }
        }
        for (int round = 0; round < 3; round++) {
            cache.json(first, resource(first, "1"));
            cache.json(second, resource(second, "1"));
        }
        assertThat(renders).hasValue(2);
    }

    @Test
    void shouldKeepNumberedKeysCachedWhenTheyFitInTheSlots() {
        RenderedJsonCache big = new RenderedJsonCache(1 << 15, r -> {
            renders.incrementAndGet();
            return new byte[0];
        });
        Resource[] objects = new Resource[3_000];
        for (int k = 0; k < objects.length; k++) {
            objects[k] = resource("app-" + k, "1");
        }
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < objects.length; k++) {
                big.json("WebApp/bench/app-" + k, objects[k]);
            }
        }
        assertThat(renders.get()).as("renders beyond the first round").isLessThan(3_000 + 30);
    }

    @Test
    void shouldDecodeAStoredObjectOnlyWhenItsJsonIsNotCached() {
        AtomicInteger decodes = new AtomicInteger();
        StoredResource.Decoder decoder = bytes -> {
            decodes.incrementAndGet();
            return resource(new String(bytes, StandardCharsets.UTF_8), "9");
        };
        StoredResource stored = StoredResource.of("k/a", "a".getBytes(StandardCharsets.UTF_8), ResourceSummary.of(resource("a", "9")), decoder);
        byte[] first = cache.json(stored);
        assertThat(cache.json(stored)).isSameAs(first);
        assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo("a@9");
        assertThat(decodes).hasValue(1);
        assertThat(renders).hasValue(1);
    }

    @Test
    void shouldEvictByBytesSoThatLargeObjectsNeverPassTheBudget() {
        RenderedJsonCache bounded = new RenderedJsonCache(1 << 10, 10_000, r -> {
            renders.incrementAndGet();
            return new byte[Integer.parseInt(r.getMetadata().getName())];
        });
        for (int k = 0; k < 500; k++) {
            bounded.json("k/" + k, resource(String.valueOf(1_000 + k), "1"));
            assertThat(bounded.bytes()).as("bytes after object %d", k).isLessThanOrEqualTo(10_000);
        }
        assertThat(bounded.bytes()).as("the cache still holds what fits").isGreaterThan(5_000);
        bounded.json("k/huge", resource("20000", "1"));
        bounded.json("k/huge", resource("20000", "1"));
        assertThat(renders).as("an object larger than the budget is rendered and not kept").hasValue(502);
        assertThat(bounded.bytes()).isLessThanOrEqualTo(10_000);
    }

    @Test
    void shouldRefuseASlotCountThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new RenderedJsonCache(6, r -> new byte[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRenderTheSameJsonAsTheTreeForm() throws Exception {
        Resource r = resource("shop", "3");
        String fromBytes = new String(ResourceJson.toBytes(r), StandardCharsets.UTF_8);
        assertThat(fromBytes).isEqualTo(ResourceJson.MAPPER.writeValueAsString(ResourceJson.toJson(r)));
        assertThat(fromBytes).contains("\"resourceVersion\":\"3\"");
    }

    static Resource resource(String name, String version) {
        return Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind("WebApp").setNamespace("default")
            .setName(name).setResourceVersion(version).build()).setStatus(ResourceStatus.newBuilder().build()).build();
    }
}
