package io.statesync.reconciler.fields;

import java.util.List;

/** The type of a list and, for a map list, the names of its key fields. */
public record ListShape(ListType type, List<String> keys) {
    public static final ListShape ATOMIC = new ListShape(ListType.ATOMIC, List.of());
    public static final ListShape SET = new ListShape(ListType.SET, List.of());

    public ListShape {
        keys = List.copyOf(keys);
        if ((type == ListType.MAP) == keys.isEmpty()) {
            throw new IllegalArgumentException(type == ListType.MAP ? "a map list needs key fields"
                    : "only a map list has key fields");
        }
    }

    /** A map list keyed by these fields. */
    public static ListShape map(String... keys) {
        return new ListShape(ListType.MAP, List.of(keys));
    }
}
