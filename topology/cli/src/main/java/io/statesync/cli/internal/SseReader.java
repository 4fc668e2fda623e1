package io.statesync.cli.internal;

import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads Server-Sent Events as the HTML standard defines them. An event is handed out only at the blank line that ends
 * it, so an event cut off by a dropped connection is never seen half: its id would otherwise claim an event the
 * client did not get.
 */
public final class SseReader {

    /** One event; {@code type} is "message" when the stream named none, {@code id} null when it carried none. */
    public record Event(String type, String id, String data) {
    }

    private final BufferedReader in;

    public SseReader(BufferedReader in) {
        this.in = in;
    }

    /** The next complete event, or null at the end of the stream. */
    public Event next() throws IOException {
        String type = null;
        String id = null;
        StringBuilder data = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(type == null ? "message" : type, id, data.toString());
                }
                type = null;
                id = null;
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            value = value.startsWith(" ") ? value.substring(1) : value;
            switch (field) {
                case "event" -> type = value;
                case "id" -> id = value;
                case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                default -> {
                    // A comment (empty field name, such as the server's pings) or a field this client does not use.
                }
            }
        }
        return null;
    }
}
