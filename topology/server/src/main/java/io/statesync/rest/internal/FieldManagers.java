package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import io.statesync.topology.ManagedFields;

/**
 * The field manager a write records in metadata.managedFields, as the Kubernetes apiserver names it: the
 * {@code fieldManager} parameter, checked as Kubernetes checks it (at most 128 bytes of printable characters), or else
 * the User-Agent up to its first {@code /} with unprintable characters dropped, cut to the same bound.
 */
public final class FieldManagers {

    private FieldManagers() {
    }

    /** The write's manager; null when neither the parameter nor the User-Agent names one. */
    public static String of(Context ctx) {
        String given = ctx.queryParam("fieldManager");
        if (given != null && !given.isEmpty()) {
            return checked(given);
        }
        String agent = ctx.header("User-Agent");
        return agent == null ? null : fromUserAgent(agent);
    }

    /** The manager of a server-side apply, which must name one. */
    public static String ofApply(Context ctx) {
        String given = ctx.queryParam("fieldManager");
        if (given == null || given.isEmpty()) {
            throw new ApiError(422, "Invalid", "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is"
                + " required for apply patch");
        }
        return checked(given);
    }

    static String checked(String manager) {
        if (manager.getBytes(StandardCharsets.UTF_8).length > ManagedFields.MAX_MANAGER_BYTES) {
            throw new ApiError(422, "Invalid", "fieldManager: Too long: may not be more than "
                + ManagedFields.MAX_MANAGER_BYTES + " bytes");
        }
        int i = 0;
        for (int cp : manager.codePoints().toArray()) {
            if (!printable(cp)) {
                throw new ApiError(422, "Invalid", String.format("fieldManager: Invalid value: invalid character U+%04X"
                    + " (at position %d)", cp, i));
            }
            i += Character.charCount(cp);
        }
        return manager;
    }

    static String fromUserAgent(String agent) {
        String prefix = agent.split("/", 2)[0];
        StringBuilder out = new StringBuilder();
        int bytes = 0;
        for (int cp : prefix.codePoints().toArray()) {
            if (!printable(cp)) {
                continue;
            }
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes + len > ManagedFields.MAX_MANAGER_BYTES) {
                break;
            }
            out.appendCodePoint(cp);
            bytes += len;
        }
        return out.isEmpty() ? null : out.toString();
    }

    /** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                 Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
                 Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER,
                 Character.LETTER_NUMBER, Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION,
                 Character.DASH_PUNCTUATION, Character.START_PUNCTUATION, Character.END_PUNCTUATION,
                 Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                 Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL, Character.CURRENCY_SYMBOL,
                 Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
            default -> false;
        };
    }
}
