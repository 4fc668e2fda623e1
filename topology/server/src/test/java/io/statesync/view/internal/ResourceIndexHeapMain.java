package io.statesync.view.internal;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.util.SplittableRandom;
import java.util.TreeMap;

import io.statesync.view.StoredResource;

/**
 * Measures the heap the index's own structures take per key, apart from the keys and resources they hold: fills an
 * index with {@code WebApp/bench/app-N} keys as a first catch-up from the beginning does (in hash order, sorted at the
 * end), or from a snapshot's sorted map, and prints the heap used after a full collection before and after. Run by
 * hand with the test classpath: {@code java -XX:+UseSerialGC -Xmx2g -cp ... ResourceIndexHeapMain [keys] [load|snapshot] [swap]}.
 */
public final class ResourceIndexHeapMain {

    private ResourceIndexHeapMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        boolean snapshot = args.length > 1 && args[1].equals("snapshot");
        StoredResource[] resources = new StoredResource[keys];
        for (int i = 0; i < keys; i++) {
            resources[i] = StoredResource.absent("WebApp/bench/app-" + i);
        }
        shuffle(resources);
        long empty = usedAfterGc();
        ResourceIndex index = snapshot ? fromSnapshot(resources) : fromBeginning(resources);
        long full = usedAfterGc();
        System.out.printf("%s: %d keys, index structures %.1f bytes per key (%d MB), size %d%n",
            snapshot ? "snapshot" : "load", keys, (full - empty) / (double) keys, (full - empty) >> 20, index.size());
        if (args.length > 2 && args[2].equals("swap")) {
            timeSwapIn(index);
        }
        Reference.reachabilityFence(resources);
        Reference.reachabilityFence(index);
    }

    /** How long the spill's swap of every resource for its mapped copy holds the view's lock. */
    private static void timeSwapIn(ResourceIndex index) {
        for (int round = 0; round < 5; round++) {
            StoredResource[] written = index.sortedArray();
            StoredResource[] mapped = new StoredResource[written.length];
            for (int i = 0; i < written.length; i++) {
                mapped[i] = StoredResource.absent(written[i].key());
            }
            long start = System.nanoTime();
            int swapped = index.swapIn(written, mapped, r -> { });
            System.out.printf("swapIn of %d resources: %d ms%n", swapped, (System.nanoTime() - start) / 1_000_000);
        }
    }

    private static ResourceIndex fromBeginning(StoredResource[] resources) {
        ResourceIndex index = new ResourceIndex();
        index.expect(resources.length);
        index.loadFromBeginning(resources.length);
        for (StoredResource r : resources) {
            index.put(r.key(), index.get(r.key()), r);
        }
        index.useSorted(index.sortLoad());
        return index;
    }

    private static ResourceIndex fromSnapshot(StoredResource[] resources) {
        TreeMap<String, StoredResource> tree = new TreeMap<>();
        for (StoredResource r : resources) {
            tree.put(r.key(), r);
        }
        ResourceIndex index = new ResourceIndex();
        index.expect(resources.length);
        index.fill(tree);
        index.useSorted(tree);
        return index;
    }

    private static void shuffle(StoredResource[] resources) {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = resources.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            StoredResource t = resources[i];
            resources[i] = resources[j];
            resources[j] = t;
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
