package io.statesync.rest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector: comma-separated requirements, all of which must hold. Supported forms are
 * {@code a=b}, {@code a==b}, {@code a!=b}, {@code a in (x,y)}, {@code a notin (x)}, {@code a} (exists) and
 * {@code !a} (does not exist). As in Kubernetes, {@code !=} and {@code notin} also match objects without the label.
 */
public final class LabelSelector {

    /** One requirement; {@code values} is empty for the existence operators. */
    public record Requirement(String key, Operator operator, Set<String> values) {
        boolean matches(Map<String, String> labels) {
            String v = labels.get(key);
            return switch (operator) {
                case EQUALS, IN -> v != null && values.contains(v);
                case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
                case EXISTS -> v != null;
                case DOES_NOT_EXIST -> v == null;
            };
        }
    }

    public enum Operator { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, DOES_NOT_EXIST }

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern PREFIX =
        Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern VALUE = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?");
    private static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = List.copyOf(requirements);
    }

    public static LabelSelector everything() {
        return EVERYTHING;
    }

    /**
     * Parses a selector; null or blank selects everything.
     *
     * @throws IllegalArgumentException naming the offending requirement
     */
    public static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> out = new ArrayList<>();
        for (String part : splitTopLevel(text)) {
            out.add(requirement(part.trim()));
        }
        return new LabelSelector(out);
    }

    public List<Requirement> requirements() {
        return requirements;
    }

    public boolean matches(Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        return requirements.stream().allMatch(r -> r.matches(l));
    }

    /** Splits on commas that are not inside the parentheses of an in/notin set. */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
            if (depth < 0 || depth > 1) {
                throw new IllegalArgumentException("unbalanced parentheses in label selector '" + text + "'");
            }
        }
        if (depth != 0) {
            throw new IllegalArgumentException("unbalanced parentheses in label selector '" + text + "'");
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static Requirement requirement(String part) {
        if (part.isEmpty()) {
            throw new IllegalArgumentException("empty requirement in label selector");
        }
        if (part.startsWith("!")) {
            return new Requirement(key(part.substring(1).trim(), part), Operator.DOES_NOT_EXIST, Set.of());
        }
        int ne = part.indexOf("!=");
        if (ne >= 0) {
            return equality(part, ne, 2, Operator.NOT_EQUALS);
        }
        int eq = part.indexOf('=');
        if (eq >= 0) {
            return equality(part, eq, part.startsWith("==", eq) ? 2 : 1, Operator.EQUALS);
        }
        java.util.regex.Matcher m = Pattern.compile("^(\\S+)\\s+(in|notin)\\s*\\((.*)\\)$").matcher(part);
        if (m.matches()) {
            Operator op = m.group(2).equals("in") ? Operator.IN : Operator.NOT_IN;
            return new Requirement(key(m.group(1), part), op, valueSet(m.group(3), part));
        }
        return new Requirement(key(part, part), Operator.EXISTS, Set.of());
    }

    private static Requirement equality(String part, int at, int width, Operator op) {
        String value = part.substring(at + width).trim();
        return new Requirement(key(part.substring(0, at).trim(), part), op, Set.of(value(value, part)));
    }

    private static Set<String> valueSet(String inner, String part) {
        Set<String> values = new LinkedHashSet<>();
        for (String v : inner.split(",", -1)) {
            values.add(value(v.trim(), part));
        }
        return values;
    }

    private static String key(String key, String part) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        boolean prefixOk = slash < 0 || (slash <= 253 && PREFIX.matcher(key.substring(0, slash)).matches());
        if (!prefixOk || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("invalid label key '" + key + "' in requirement '" + part + "'");
        }
        return key;
    }

    private static String value(String value, String part) {
        if (!VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException("invalid label value '" + value + "' in requirement '" + part + "'");
        }
        return value;
    }

    @Override
    public String toString() {
        return requirements.toString();
    }
}
