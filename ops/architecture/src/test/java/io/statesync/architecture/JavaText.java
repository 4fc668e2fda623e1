package io.statesync.architecture;

import java.util.ArrayList;
import java.util.List;

/**
 * A comment or a string literal of a Java source, with the line it starts on. Block comments come whole, their
 * leading {@code *} dropped, so that a sentence that wraps is read as one.
 */
record JavaText(int line, boolean comment, String text) {

    static List<JavaText> of(String src) {
        List<JavaText> out = new ArrayList<>();
        int line = 1;
        int i = 0;
        while (i < src.length()) {
            char c = src.charAt(i);
            int end;
            if (src.startsWith("//", i)) {
                end = indexOrEnd(src, "\n", i);
                out.add(new JavaText(line, true, src.substring(i + 2, end)));
            } else if (src.startsWith("/*", i)) {
                end = indexOrEnd(src, "*/", i + 2) + 2;
                out.add(new JavaText(line, true, src.substring(i + 2, Math.min(end, src.length()))
                    .replaceAll("\\n\\s*\\*?", " ")));
            } else if (src.startsWith("\"\"\"", i)) {
                end = indexOrEnd(src, "\"\"\"", i + 3) + 3;
                out.add(new JavaText(line, false, src.substring(i + 3, Math.min(end, src.length()))));
            } else if (c == '"' || c == '\'') {
                end = literalEnd(src, i, c);
                if (c == '"') {
                    out.add(new JavaText(line, false, src.substring(i + 1, Math.max(i + 1, end - 1))));
                }
            } else {
                end = i + 1;
            }
            end = Math.min(end, src.length());
            line += count(src, i, end);
            i = end;
        }
        return out;
    }

    private static int literalEnd(String src, int start, char quote) {
        int i = start + 1;
        while (i < src.length() && src.charAt(i) != quote && src.charAt(i) != '\n') {
            i += src.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }

    private static int indexOrEnd(String src, String token, int from) {
        int at = src.indexOf(token, from);
        return at < 0 ? src.length() : at;
    }

    private static int count(String src, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += src.charAt(i) == '\n' ? 1 : 0;
        }
        return n;
    }
}
