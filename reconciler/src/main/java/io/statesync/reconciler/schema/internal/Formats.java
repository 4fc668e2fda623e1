package io.statesync.reconciler.schema.internal;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.statesync.reconciler.schema.FieldError;

/**
 * A string's checks: its length in characters (code points, as Kubernetes counts runes), its {@code pattern} (found
 * anywhere in it, as Go's {@code regexp.MatchString}; on at most {@link #MAX_PATTERN_INPUT} characters, so that a
 * pattern cannot cost more than its input bounds it to), and its {@code format} where it is one of the formats
 * Kubernetes checks; an unknown format is not checked, as in Kubernetes.
 */
final class Formats {

    /** Patterns run over at most this many characters of a value; longer values fail the pattern. */
    static final int MAX_PATTERN_INPUT = 65_536;

    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}");
    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final Pattern HOSTNAME = Pattern.compile("[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*");
    private static final Pattern DURATION = Pattern.compile("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h|d|w))+");

    private static final Map<String, Predicate<String>> CHECKS = Map.of(
        "date", Formats::isDate,
        "date-time", Formats::isDateTime,
        "datetime", Formats::isDateTime,
        "uuid", s -> UUID.matcher(s).matches(),
        "byte", Formats::isBase64,
        "ipv4", s -> IPV4.matcher(s).matches(),
        "hostname", s -> s.length() <= 253 && HOSTNAME.matcher(s).matches(),
        "duration", s -> DURATION.matcher(s).matches());

    private Formats() {
    }

    static void validateString(SchemaNode node, String s, String path, List<FieldError> errors, long maxPatternSteps) {
        long length = s.codePointCount(0, s.length());
        if (node.minLength() != null && length < node.minLength()) {
            errors.add(FieldError.invalid(path, s, path + " in body should be at least " + node.minLength() + " chars long"));
        }
        if (node.maxLength() != null && length > node.maxLength()) {
            errors.add(new FieldError(path, "FieldValueTooLong", "Too long: may not be longer than " + node.maxLength()));
        }
        if (node.pattern() != null && (s.length() > MAX_PATTERN_INPUT || !matches(node.pattern(), s, maxPatternSteps))) {
            errors.add(FieldError.invalid(path, s, path + " in body should match '" + node.patternText() + "'"));
        }
        Predicate<String> check = node.format() == null ? null : CHECKS.get(node.format());
        if (check != null && !check.test(s)) {
            errors.add(FieldError.invalid(path, s, path + " in body must be of type " + node.format() + ": \"" + s + "\""));
        }
    }

    /**
     * Whether the pattern is found in {@code s}, within {@code maxSteps} character reads: Java's regular
     * expressions backtrack, where Kubernetes' run in linear time, so a pattern such as {@code (a+)+$} could hold the
     * task that admits the write; past the budget the value fails the pattern.
     */
    static boolean matches(Pattern pattern, String s, long maxSteps) {
        try {
            return pattern.matcher(new Budgeted(s, maxSteps)).find();
        } catch (Budgeted.Exhausted e) {
            return false;
        }
    }

    /** A string that counts the reads of its characters and stops the match past its budget. */
    private static final class Budgeted implements CharSequence {
        static final class Exhausted extends RuntimeException {
            Exhausted() {
                super(null, null, false, false);
            }
        }

        private final String s;
        private final long[] left;

        Budgeted(String s, long budget) {
            this(s, new long[] {budget});
        }

        private Budgeted(String s, long[] left) {
            this.s = s;
            this.left = left;
        }

        @Override
        public char charAt(int index) {
            if (--left[0] < 0) {
                throw new Exhausted();
            }
            return s.charAt(index);
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Budgeted(s.substring(start, end), left);
        }

        @Override
        public String toString() {
            return s;
        }
    }

    private static boolean isDate(String s) {
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isDateTime(String s) {
        try {
            OffsetDateTime.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isBase64(String s) {
        try {
            Base64.getDecoder().decode(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
