package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import java.util.Arrays;

/** A path under construction during a walk: a parent pointer per level, so descending costs no copying. */
public final class PathNode {
    public static final PathNode ROOT = new PathNode(null, null, 0);

    private final PathNode parent;
    private final int depth;
    /** For a keyed-list item, the key field; its {@code [field=value]} segment is only built when asked for. */
    private final String keyField;
    private String segment;
    private boolean formatted;

    private PathNode(PathNode parent, String segment, int depth) {
        this(parent, segment, depth, null);
    }

    private PathNode(PathNode parent, String segment, int depth, String keyField) {
        this.parent = parent;
        this.segment = segment;
        this.depth = depth;
        this.keyField = keyField;
    }

    public PathNode child(String segment) {
        return new PathNode(this, segment, depth + 1);
    }

    /** The child for a map key, or for the item whose {@code keyField} has {@code keyString} when keyField is set. */
    public PathNode child(String keyOrKeyString, String keyField) {
        return keyField == null ? child(keyOrKeyString) : new PathNode(this, keyOrKeyString, depth + 1, keyField);
    }

    private String segment() {
        if (keyField != null && !formatted) {
            segment = FieldPath.keySegment(keyField, segment);
            formatted = true;
        }
        return segment;
    }

    public int depth() {
        return depth;
    }

    /** Whether the segments match {@code pattern} (same length, {@code *} matches any segment). */
    boolean matches(String[] pattern) {
        if (pattern.length != depth) {
            return false;
        }
        PathNode node = this;
        for (int i = depth - 1; i >= 0; i--, node = node.parent) {
            String p = pattern[i];
            if (!p.equals(FieldPath.WILDCARD) && !p.equals(node.segment())) {
                return false;
            }
        }
        return true;
    }

    public FieldPath toFieldPath() {
        String[] segments = new String[depth];
        PathNode node = this;
        for (int i = depth - 1; i >= 0; i--, node = node.parent) {
            segments[i] = node.segment();
        }
        return new FieldPath(Arrays.asList(segments));
    }

    @Override
    public String toString() {
        return toFieldPath().format();
    }
}
