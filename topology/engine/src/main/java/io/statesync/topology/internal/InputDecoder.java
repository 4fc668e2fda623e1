package io.statesync.topology.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.statesync.avro.Value;
import io.statesync.serde.SerdeException;
import io.statesync.topology.ResourceKey;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Turns the raw bytes of an input record into a validated key and value, or says precisely why it cannot:
 * every failure becomes a {@link Bad} that the processor sends to the DLQ, so nothing is lost and
 * processing continues.
 *
 * @param <T> the Avro value type of the topic
 */
final class InputDecoder<T> {

    sealed interface Result<T> permits Ok, Bad {
    }

    /** A valid record; {@code value} is null for a tombstone. */
    record Ok<T>(String key, ResourceKey resourceKey, T value) implements Result<T> {
    }

    record Bad<T>(String key, String reason, Throwable error, String message) implements Result<T> {
    }

    private final Deserializer<T> deserializer;
    private final Function<T, ResourceKey> identity;
    private final Function<T, List<Value>> trees;
    private final int maxBytes;
    private final int maxDepth;

    InputDecoder(Deserializer<T> deserializer, Function<T, ResourceKey> identity, Function<T, List<Value>> trees,
                 int maxBytes, int maxDepth) {
        this.deserializer = deserializer;
        this.identity = identity;
        this.trees = trees;
        this.maxBytes = maxBytes;
        this.maxDepth = maxDepth;
    }

    Result<T> decode(String topic, Headers headers, byte[] keyBytes, byte[] valueBytes) {
        if (keyBytes == null) {
            return new Bad<>(null, "NullKey", null, "record has no key; keys are kind/namespace/name");
        }
        String key;
        try {
            key = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(keyBytes)).toString();
        } catch (CharacterCodingException e) {
            return new Bad<>(null, "InvalidKey", e, "key is not valid UTF-8");
        }
        ResourceKey rk;
        try {
            rk = ResourceKey.parse(key);
        } catch (IllegalArgumentException e) {
            return new Bad<>(key, "InvalidKey", e, e.getMessage());
        }
        if (valueBytes == null) {
            return new Ok<>(key, rk, null);
        }
        if (valueBytes.length > maxBytes) {
            return new Bad<>(key, "TooLarge", null, "value has " + valueBytes.length + " bytes, limit " + maxBytes);
        }
        return decodeValue(topic, headers, key, rk, valueBytes);
    }

    private Result<T> decodeValue(String topic, Headers headers, String key, ResourceKey rk, byte[] valueBytes) {
        T value;
        try {
            value = deserializer.deserialize(topic, headers, valueBytes);
        } catch (StackOverflowError e) {
            return new Bad<>(key, "TooDeep", e, "value nesting is too deep to decode (limit " + maxDepth + ")");
        } catch (SerdeException e) {
            if (!e.isBadData()) {
                // The registry is unreachable or failing: every record would fail alike, so this is not bad data.
                // Throwing lets the processing handler fail the task, which is retried from the last commit.
                throw e;
            }
            return new Bad<>(key, "Deserialization", e, e.reason() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            return new Bad<>(key, "Deserialization", e, e.getMessage());
        }
        ResourceKey claimed;
        try {
            claimed = identity.apply(value);
        } catch (IllegalArgumentException e) {
            return new Bad<>(key, "InvalidValue", e, e.getMessage());
        }
        if (!claimed.equals(rk)) {
            return new Bad<>(key, "KeyMismatch", null, "key " + key + " does not match the record's kind/namespace/name " + claimed);
        }
        for (Value tree : trees.apply(value)) {
            if (deeperThan(tree, maxDepth)) {
                return new Bad<>(key, "TooDeep", null, "tree is deeper than the limit of " + maxDepth + " levels");
            }
        }
        return new Ok<>(key, rk, value);
    }

    /**
     * Every input is checked, so the usual limit walks recursively, which allocates nothing but the compact maps
     * the walk puts in place of the decoder's (see {@link CompactValues}); the recursion stops one level past the
     * limit, so a hostile tree cannot overflow the stack. A limit set higher than that walks iteratively and leaves
     * the maps as decoded.
     */
    static boolean deeperThan(Value root, int limit) {
        return limit <= CompactValues.RECURSION_LIMIT ? !CompactValues.compactWithin(root, limit) : depth(root) > limit;
    }

    /** Iterative, because a hostile tree may be deep enough to overflow a recursive walk. */
    static int depth(Value root) {
        if (root == null) {
            return 0;
        }
        int max = 0;
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {root, 1});
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            int d = (Integer) top[1];
            max = Math.max(max, d);
            Object v = ((Value) top[0]).getValue();
            Collection<?> children = v instanceof List<?> l ? l : v instanceof Map<?, ?> m ? m.values() : List.of();
            for (Object child : children) {
                if (child != null) {
                    stack.push(new Object[] {child, d + 1});
                }
            }
        }
        return max;
    }
}
