package io.statesync.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.statesync.avro.Value;
import org.apache.avro.util.Utf8;

/** Seeded random {@link Value} trees of every branch, with String and Avro Utf8 text, for converter and writer tests. */
public final class RandomValues {

    private RandomValues() {
    }

    public static Value node(SplittableRandom random, int depth) {
        return switch (random.nextInt(depth <= 0 ? 5 : 7)) {
            case 0 -> new Value(null);
            case 1 -> new Value(random.nextBoolean());
            case 2 -> new Value(random.nextLong());
            case 3 -> new Value(random.nextDouble() * 1e6);
            case 4 -> new Value(text(random, "s-"));
            case 5 -> {
                List<Value> items = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    items.add(node(random, depth - 1));
                }
                yield new Value(items);
            }
            default -> {
                Map<CharSequence, Value> entries = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    entries.put(text(random, "k"), node(random, depth - 1));
                }
                yield new Value(entries);
            }
        };
    }

    private static CharSequence text(SplittableRandom random, String prefix) {
        String s = prefix + random.nextInt(50) + "-\u00e9\u4e2d";
        return random.nextBoolean() ? s : new Utf8(s);
    }
}
