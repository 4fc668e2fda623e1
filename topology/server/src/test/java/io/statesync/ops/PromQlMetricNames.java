package io.statesync.ops;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pulls the metric names out of a PromQL expression: every identifier that is not a function call, a
 * keyword, a label name (inside braces or a grouping clause) or a Grafana variable. Not a parser, but
 * PromQL's lexical rules make this exact for the expressions a dashboard or an alert uses.
 */
final class PromQlMetricNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\[\\[[^]]*]]|\\$\\w+");
    private static final Pattern LABEL_MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
        "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
        "ignoring", "group_left", "group_right", "atan2", "inf", "nan", "start", "end");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*[A-Za-z_][A-Za-z0-9_]*\\s*\\)\\s*$", Pattern.DOTALL);
    private static final Pattern LABEL_VALUES_NO_METRIC = Pattern.compile("^\\s*label_values\\(\\s*[A-Za-z_][A-Za-z0-9_]*\\s*\\)\\s*$");
    private static final Pattern QUERY_RESULT = Pattern.compile("^\\s*query_result\\((.*)\\)\\s*$", Pattern.DOTALL);

    private PromQlMetricNames() {
    }

    static Set<String> of(String expr) {
        String s = GRAFANA_VARIABLE.matcher(STRING.matcher(expr).replaceAll("\"\"")).replaceAll("1");
        s = LABEL_MATCHERS.matcher(s).replaceAll(" ");
        s = RANGE.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String token = m.group();
            boolean partOfNumber = m.start() > 0 && (Character.isLetterOrDigit(s.charAt(m.start() - 1)) || s.charAt(m.start() - 1) == '.');
            if (partOfNumber || KEYWORDS.contains(token.toLowerCase()) || isFunctionCall(s, m.end())) {
                continue;
            }
            names.add(token);
        }
        return names;
    }

    /** A Grafana template-variable query: {@code label_values(metric, label)}, {@code query_result(expr)} or plain PromQL. */
    static Set<String> ofVariableQuery(String query) {
        if (LABEL_VALUES_NO_METRIC.matcher(query).matches()) {
            return Set.of();
        }
        Matcher labelValues = LABEL_VALUES.matcher(query);
        if (labelValues.matches()) {
            return of(labelValues.group(1));
        }
        Matcher queryResult = QUERY_RESULT.matcher(query);
        return of(queryResult.matches() ? queryResult.group(1) : query);
    }

    private static boolean isFunctionCall(String s, int end) {
        int i = end;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i < s.length() && s.charAt(i) == '(';
    }
}
