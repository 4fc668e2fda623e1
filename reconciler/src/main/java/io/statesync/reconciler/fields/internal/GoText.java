package io.statesync.reconciler.fields.internal;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Text as the Kubernetes apiserver writes it, so that field sets, conflict messages and manager identifiers read
 * byte for byte the same: JSON with HTML-safe escapes and shortest numbers, and Go's quoting for messages.
 */
public final class GoText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private GoText() {
    }

    /** A scalar tree value as JSON (strings escaped, integral doubles without a fraction). */
    public static void json(Object value, StringBuilder out) {
        if (value instanceof String s) {
            jsonString(s, out);
        } else if (value instanceof Double d) {
            out.append(jsonNumber(d));
        } else if (value instanceof Map<?, ?> || value instanceof List<?>) {
            throw new IllegalArgumentException("not a scalar: " + value);
        } else {
            out.append(value);
        }
    }

    /** A JSON string: quotes, backslashes and control characters escaped, and {@code < > &} and line separators too. */
    public static void jsonString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                                .append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A double as JSON: plain decimal between 1e-6 and 1e21, exponent form outside, shortest digits always. */
    public static String jsonNumber(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("not a JSON number: " + d);
        }
        double abs = Math.abs(d);
        if (abs == 0 || (abs >= 1e-6 && abs < 1e21)) {
            return plain(d);
        }
        return exponent(d, false);
    }

    /** A double as Go's {@code %v} prints it: plain when the exponent is in [-4, 6), else with an exponent. */
    public static String printNumber(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == 0) {
            return plain(d);
        }
        BigDecimal digits = shortest(d);
        int exp = digits.precision() - digits.scale() - 1;
        return exp < -4 || exp >= 6 ? exponent(d, true) : plain(d);
    }

    private static BigDecimal shortest(double d) {
        return new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
    }

    private static String plain(double d) {
        if (d == 0) {
            return (1 / d < 0) ? "-0" : "0";
        }
        return (d < 0 ? "-" : "") + shortest(d).toPlainString();
    }

    private static String exponent(double d, boolean twoDigitMinimum) {
        BigDecimal digits = shortest(d);
        int exp = digits.precision() - digits.scale() - 1;
        String unscaled = digits.unscaledValue().toString();
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        out.append(unscaled.charAt(0));
        if (unscaled.length() > 1) {
            out.append('.').append(unscaled, 1, unscaled.length());
        }
        out.append('e').append(exp < 0 ? '-' : '+');
        int magnitude = Math.abs(exp);
        boolean pad = magnitude < 10 && (twoDigitMinimum || exp > 0);
        return out.append(pad ? "0" : "").append(magnitude).toString();
    }

    /** Go's {@code %q}: a double-quoted string with Go escapes for control characters. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\u0007' -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\u000b' -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append("\\x").append(HEX[c >> 4]).append(HEX[c & 15]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** A scalar as Go's {@code %v} of a structured-merge-diff value: strings quoted, numbers and booleans bare. */
    public static String print(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return quote(s);
        }
        if (value instanceof Double d) {
            return printNumber(d);
        }
        return value.toString();
    }

    /** Strings in code point order, which is the byte order of their UTF-8 form that Go compares. */
    public static int compareStrings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                boolean xs = Character.isSurrogate(x);
                boolean ys = Character.isSurrogate(y);
                if (xs != ys) {
                    return xs ? 1 : -1;
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }
}
