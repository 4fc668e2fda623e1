package io.statesync.reconciler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A path into a tree, as a list of segments.
 * <ul>
 *   <li>A map key is the key itself: {@code image}.</li>
 *   <li>An item of a keyed list (one that the policy merges by a key field) is {@code [field=value]}:
 *       {@code containers}, {@code [name=web]}, {@code image}.</li>
 *   <li>An item of an atomic list, addressed by position, is {@code [3]}. Diffs never produce it (atomic lists are
 *       compared whole) but ignore rules and hand-written patches may use it.</li>
 *   <li>In a pattern (ignore rules, list merge keys) the segment {@code *} matches any one segment.</li>
 * </ul>
 * The dotted form joins map keys with {@code .} and appends bracket segments directly:
 * {@code containers[name=web].image}. A map key containing {@code . [ ] \ *} is escaped with {@code \} in the dotted
 * form; the segment list always holds the raw key.
 */
public record FieldPath(List<String> segments) {
    public static final String WILDCARD = "*";
    private static final FieldPath ROOT = new FieldPath(List.of());

    public FieldPath {
        segments = List.copyOf(segments);
    }

    public static FieldPath root() {
        return ROOT;
    }

    public static FieldPath of(String... segments) {
        return new FieldPath(Arrays.asList(segments));
    }

    /** The segment that addresses the item of a keyed list whose {@code keyField} equals {@code keyValue}. */
    public static String keySegment(String keyField, String keyValue) {
        return "[" + keyField + "=" + keyValue + "]";
    }

    /** The segment that addresses position {@code index} of a list. */
    public static String indexSegment(int index) {
        return "[" + index + "]";
    }

    public static boolean isBracketSegment(String segment) {
        return segment.length() >= 2 && segment.charAt(0) == '[' && segment.charAt(segment.length() - 1) == ']';
    }

    /** Parses the dotted form; the empty string is the root. */
    public static FieldPath parse(String dotted) {
        return new FieldPath(io.statesync.reconciler.internal.PathSyntax.parse(dotted));
    }

    public String format() {
        return io.statesync.reconciler.internal.PathSyntax.format(segments);
    }

    public FieldPath child(String segment) {
        List<String> next = new ArrayList<>(segments.size() + 1);
        next.addAll(segments);
        next.add(Objects.requireNonNull(segment, "segment"));
        return new FieldPath(next);
    }

    public FieldPath parent() {
        if (segments.isEmpty()) {
            throw new IllegalStateException("the root has no parent");
        }
        return new FieldPath(segments.subList(0, segments.size() - 1));
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    public int size() {
        return segments.size();
    }

    public String last() {
        return segments.isEmpty() ? null : segments.get(segments.size() - 1);
    }

    /** Whether this path has exactly as many segments as {@code pattern} and each matches ({@code *} matches any). */
    public boolean matches(FieldPath pattern) {
        return pattern.size() == size() && matchesPrefix(pattern);
    }

    /** Whether {@code pattern} matches this path or one of its ancestors, i.e. the path lies inside the pattern. */
    public boolean isWithin(FieldPath pattern) {
        return pattern.size() <= size() && matchesPrefix(pattern);
    }

    private boolean matchesPrefix(FieldPath pattern) {
        for (int i = 0; i < pattern.size(); i++) {
            String p = pattern.segments.get(i);
            if (!p.equals(WILDCARD) && !p.equals(segments.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return format();
    }
}
