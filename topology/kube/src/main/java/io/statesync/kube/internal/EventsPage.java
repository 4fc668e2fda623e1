package io.statesync.kube.internal;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;

/**
 * One page of an events list, held to {@code list.max.bytes} and the client's {@code limit}. The events come from
 * the instance's bounded history, in a stable order, so the continue token is the index of the next event; past the
 * budget without a {@code limit} the list is refused with a Status that says how to page, as resource lists are.
 */
record EventsPage(List<ObjectNode> items, String next) {

    private static final String PREFIX = "events:";

    /** The index a {@code continue} token starts from (0 without one); a token that is not one of ours is 400. */
    static int start(String token) {
        if (token == null || token.isBlank()) {
            return 0;
        }
        try {
            String s = new String(Base64.getUrlDecoder().decode(token.trim()), StandardCharsets.UTF_8);
            int from = s.startsWith(PREFIX) ? Integer.parseInt(s.substring(PREFIX.length())) : -1;
            if (from >= 0) {
                return from;
            }
        } catch (IllegalArgumentException e) {
            // Falls through to the refusal: not base64, or no index in it.
        }
        throw ApiError.badRequest("continue is not a token from a previous events list");
    }

    static EventsPage of(List<ObjectNode> events, int from, int limit, boolean pageable, long maxBytes) {
        int end = Math.min(events.size(), from);
        long bytes = 0;
        while (end < events.size() && end - from < limit) {
            bytes += events.get(end).toString().length();
            if (bytes > maxBytes && end > from) {
                break;
            }
            end++;
        }
        if (end >= events.size()) {
            return new EventsPage(events.subList(Math.min(from, events.size()), events.size()), null);
        }
        if (!pageable) {
            throw ApiError.badRequest("the events list is larger than list.max.bytes=" + maxBytes + " bytes; list in"
                + " pages: send limit (e.g. limit=500) and follow metadata.continue, as kubectl --chunk-size does");
        }
        String next = Base64.getUrlEncoder().withoutPadding().encodeToString((PREFIX + end).getBytes(StandardCharsets.UTF_8));
        return new EventsPage(events.subList(from, end), next);
    }
}
