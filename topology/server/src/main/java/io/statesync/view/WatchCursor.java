package io.statesync.view;

import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where a watch resumes: the SSE {@code id} of every watch event, also accepted as {@code resourceVersion}.
 *
 * <p>A cursor is a {@link WatchPosition} {@code Q} and an optional key {@code k}: the client holds every key up to and
 * including {@code k} (in the watch's filter, in {@link String#compareTo} order) as of {@code Q}, and nothing of the
 * keys after {@code k}. Without a key it holds every key as of {@code Q}: that is a plain position, as a list
 * returns, and it is encoded exactly as {@link WatchPosition#encode()} does. The initial replay of a watch is sent
 * in key order from one snapshot, so each of its events can name the last key it delivered, and a client cut off in
 * the middle resumes after that key instead of starting again.
 *
 * <p>A cursor with a key is base64url of {@code {"v":2,"o":[offsets],"k":"key"}}: its own version, so that a reader
 * that knows only plain positions refuses it (410, and the client re-lists) rather than take it for one and skip
 * the keys after {@code k}.
 */
public final class WatchCursor {

    private static final int PLAIN = 1;
    private static final int WITH_KEY = 2;

    private final WatchPosition position;
    private final String afterKey;

    /** {@code afterKey} null: every key as of {@code position}. */
    public WatchCursor(WatchPosition position, String afterKey) {
        this.position = Objects.requireNonNull(position, "position");
        this.afterKey = afterKey;
    }

    public WatchPosition position() {
        return position;
    }

    /** The last key the client holds, or null when it holds every key. */
    public String afterKey() {
        return afterKey;
    }

    /** Whether the client holds {@code key}'s state as of {@link #position()}. */
    public boolean holds(String key) {
        return afterKey == null || key.compareTo(afterKey) <= 0;
    }

    public String encode() {
        return WatchPosition.base64(toJson());
    }

    /**
     * The JSON inside this cursor's token: a front end whose own token extends it (the Kubernetes API adds the object's
     * version) adds fields other than {@code v}, {@code o} and {@code k}, which every reader of positions ignores.
     */
    public ObjectNode toJson() {
        return afterKey == null ? position.toJson(PLAIN) : position.toJson(WITH_KEY).put("k", afterKey);
    }

    /**
     * Decodes an event id or a list's position.
     *
     * @throws IllegalArgumentException when the text is neither (the watch answers 410, since re-listing is the only
     *                                  way forward from it)
     */
    public static WatchCursor decode(String token) {
        JsonNode n = WatchPosition.readToken(token);
        int version = n.path("v").asInt(-1);
        if (version == PLAIN) {
            return new WatchCursor(WatchPosition.decode(token), null);
        }
        JsonNode key = n.path("k");
        if (version != WITH_KEY || !key.isTextual() || key.asText().isEmpty()) {
            throw WatchPosition.notAPosition(token, null);
        }
        return new WatchCursor(new WatchPosition(WatchPosition.offsets(n, token)), key.asText());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WatchCursor c && position.equals(c.position) && Objects.equals(afterKey, c.afterKey);
    }

    @Override
    public int hashCode() {
        return position.hashCode() * 31 + Objects.hashCode(afterKey);
    }

    @Override
    public String toString() {
        return afterKey == null ? position.toString() : position + " after " + afterKey;
    }
}
