package io.statesync.reconciler.internal;

import io.statesync.reconciler.FieldPath;
import java.util.ArrayList;
import java.util.List;

/** The dotted form of a {@link FieldPath}: {@code containers[name=web].image}, with {@code \} escapes in map keys. */
public final class PathSyntax {
    private static final String SPECIAL = ".[]\\*";

    private PathSyntax() {
    }

    public static String format(List<String> segments) {
        StringBuilder out = new StringBuilder();
        for (String s : segments) {
            if (FieldPath.isBracketSegment(s)) {
                out.append('[').append(escape(s.substring(1, s.length() - 1), "]\\")).append(']');
            } else {
                if (out.length() > 0) {
                    out.append('.');
                }
                out.append(s.equals(FieldPath.WILDCARD) ? s : escape(s, SPECIAL));
            }
        }
        return out.toString();
    }

    private static String escape(String raw, String special) {
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (special.indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    public static List<String> parse(String dotted) {
        List<String> segments = new ArrayList<>();
        StringBuilder key = new StringBuilder();
        boolean pendingKey = false;
        int i = 0;
        while (i < dotted.length()) {
            char c = dotted.charAt(i);
            if (c == '\\') {
                key.append(charAfterEscape(dotted, i));
                pendingKey = true;
                i += 2;
            } else if (c == '.') {
                flush(segments, key, pendingKey || segments.isEmpty(), dotted);
                pendingKey = true;
                i++;
            } else if (c == '[') {
                flush(segments, key, pendingKey, dotted);
                pendingKey = false;
                i = readBracket(dotted, i, segments);
            } else {
                key.append(c);
                pendingKey = true;
                i++;
            }
        }
        flush(segments, key, pendingKey, dotted);
        return segments;
    }

    private static void flush(List<String> segments, StringBuilder key, boolean pending, String dotted) {
        if (!pending) {
            return;
        }
        if (key.length() == 0) {
            throw new IllegalArgumentException("empty segment in path '" + dotted + "'");
        }
        segments.add(key.toString());
        key.setLength(0);
    }

    private static int readBracket(String dotted, int open, List<String> segments) {
        StringBuilder inner = new StringBuilder("[");
        int i = open + 1;
        while (i < dotted.length() && dotted.charAt(i) != ']') {
            if (dotted.charAt(i) == '\\') {
                inner.append(charAfterEscape(dotted, i));
                i += 2;
            } else {
                inner.append(dotted.charAt(i++));
            }
        }
        if (i >= dotted.length()) {
            throw new IllegalArgumentException("unclosed '[' in path '" + dotted + "'");
        }
        segments.add(inner.append(']').toString());
        return i + 1;
    }

    private static char charAfterEscape(String dotted, int i) {
        if (i + 1 >= dotted.length()) {
            throw new IllegalArgumentException("dangling escape in path '" + dotted + "'");
        }
        return dotted.charAt(i + 1);
    }
}
