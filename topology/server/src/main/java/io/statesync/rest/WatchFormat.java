package io.statesync.rest;

import io.statesync.view.StoredResource;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;

/**
 * How a watch stream writes its events: the server's own API writes Server-Sent Events, the Kubernetes API
 * newline-delimited JSON. The stream itself (where it starts, which changes it sends, bookmarks, the slow-client
 * cut-offs) is one implementation whatever the format; a format only renders bytes.
 */
public interface WatchFormat {

    /** The response's Content-Type. */
    String contentType();

    /** Written when the stream opens, before any event; empty for nothing. */
    byte[] opening();

    /** One event ({@code ADDED}, {@code MODIFIED} or {@code DELETED}) of {@code object}; {@code at} resumes right after it. */
    byte[] event(String type, StoredResource object, WatchCursor at);

    /** A BOOKMARK at {@code at}; {@code initialEnd} marks the end of the initial events. Null sends none. */
    byte[] bookmark(WatchPosition at, boolean initialEnd);

    /** The ERROR event that ends a stream (410 when the changes it needs are gone, 429 for a client too far behind). */
    byte[] error(int code, String reason, String message);

    /** What keeps an idle connection open between bookmarks; null for nothing. */
    byte[] heartbeat();
}
