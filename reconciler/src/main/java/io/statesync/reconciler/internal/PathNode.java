package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import java.util.Arrays;

/** A path under construction during a walk: a parent pointer per level, so descending costs no copying. */
public final class PathNode {
    public static final PathNode ROOT = new PathNode(null, null, 0);

    private final PathNode parent;
    private final String segment;
    private final int depth;

    private PathNode(PathNode parent, String segment, int depth) {
        this.parent = parent;
        this.segment = segment;
        this.depth = depth;
    }

    public PathNode child(String segment) {
        return new PathNode(this, segment, depth + 1);
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
            if (!p.equals(FieldPath.WILDCARD) && !p.equals(node.segment)) {
                return false;
            }
        }
        return true;
    }

    public FieldPath toFieldPath() {
        String[] segments = new String[depth];
        PathNode node = this;
        for (int i = depth - 1; i >= 0; i--, node = node.parent) {
            segments[i] = node.segment;
        }
        return new FieldPath(Arrays.asList(segments));
    }

    @Override
    public String toString() {
        return toFieldPath().format();
    }
}
