package io.statesync.reconciler.fields.internal;

/**
 * A strict reader of JSON text, token by token, for input that may be hostile: every failure is an
 * {@link IllegalArgumentException} naming the offset, and nesting deeper than the limit is refused before it is
 * followed, so that no input can exhaust the stack.
 */
public final class JsonCursor {
    private final String text;
    private final int maxDepth;
    private int pos;

    public JsonCursor(String text, int maxDepth) {
        this.text = text;
        this.maxDepth = maxDepth;
    }

    public IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at offset " + pos);
    }

    public void checkDepth(int depth) {
        if (depth > maxDepth) {
            throw error("nested deeper than " + maxDepth + " levels");
        }
    }

    /** The next non-blank character, not consumed; -1 at the end. */
    public int peek() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return c;
            }
            pos++;
        }
        return -1;
    }

    public void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    /** Consumes {@code c} when it is next. */
    public boolean accept(char c) {
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    public void expectEnd() {
        if (peek() != -1) {
            throw error("unexpected trailing data");
        }
    }

    /** Consumes the literal {@code null} when it is next. */
    public boolean acceptNull() {
        if (peek() == 'n' && text.startsWith("null", pos)) {
            pos += 4;
            return true;
        }
        return false;
    }

    public String readString() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                out.append(escape());
            } else if (c < 0x20) {
                throw error("control character in a string");
            } else {
                out.append(c);
            }
        }
    }

    private char escape() {
        if (pos >= text.length()) {
            throw error("unterminated escape");
        }
        char c = text.charAt(pos++);
        return switch (c) {
            case '"', '\\', '/' -> c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> unicode();
            default -> throw error("bad escape '\\" + c + "'");
        };
    }

    private char unicode() {
        if (pos + 4 > text.length()) {
            throw error("short unicode escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(text.charAt(pos++), 16);
            if (d < 0) {
                throw error("bad unicode escape");
            }
            v = v * 16 + d;
        }
        return (char) v;
    }

    /** A string, number, boolean or null: the scalars of a tree. */
    public Object readScalar() {
        int c = peek();
        if (c == '"') {
            return readString();
        }
        if (acceptNull()) {
            return null;
        }
        if (c == 't' && text.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
        }
        if (c == 'f' && text.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return readNumber();
        }
        throw error(c == '{' || c == '[' ? "expected a scalar, not an object or array" : "expected a JSON value");
    }

    private Object readNumber() {
        int start = pos;
        accept('-');
        if (!digits()) {
            throw error("bad number");
        }
        boolean integral = true;
        if (pos < text.length() && text.charAt(pos) == '.') {
            pos++;
            integral = false;
            if (!digits()) {
                throw error("bad number");
            }
        }
        if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
            pos++;
            integral = false;
            if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
                pos++;
            }
            if (!digits()) {
                throw error("bad number");
            }
        }
        String literal = text.substring(start, pos);
        if (integral) {
            try {
                return Long.parseLong(literal);
            } catch (NumberFormatException tooBig) {
                // Falls through to a double, as a JSON decoder that reads numbers as doubles would.
            }
        }
        double d = Double.parseDouble(literal);
        if (Double.isInfinite(d)) {
            throw error("number out of range");
        }
        return d;
    }

    private boolean digits() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos > start;
    }

    /** Skips one value of any kind, refusing nesting past the limit. */
    public void skipValue(int depth) {
        checkDepth(depth);
        int c = peek();
        if (c == '{') {
            pos++;
            if (!accept('}')) {
                do {
                    readString();
                    expect(':');
                    skipValue(depth + 1);
                } while (accept(','));
                expect('}');
            }
        } else if (c == '[') {
            pos++;
            if (!accept(']')) {
                do {
                    skipValue(depth + 1);
                } while (accept(','));
                expect(']');
            }
        } else {
            readScalar();
        }
    }
}
