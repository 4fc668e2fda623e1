package io.statesync.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Watches opened on raw sockets, for the tests that must hold many of them open or leave their answers unread, which
 * an HTTP client would not: the request is sent, and reading the answer is the caller's choice.
 */
final class RawWatches {

    private RawWatches() {
    }

    /**
     * Connects to {@code base} and sends {@code GET pathAndQuery} as a server-sent-events watch with {@code token};
     * {@code receiveBuffer} bytes of receive buffer (0 for the default), so that an unread answer soon fills it.
     */
    static Socket open(String base, String pathAndQuery, String token, int receiveBuffer) throws IOException {
        URI uri = URI.create(base);
        Socket s = new Socket();
        if (receiveBuffer > 0) {
            s.setReceiveBufferSize(receiveBuffer);
        }
        s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
        s.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + uri.getHost() + "\r\nAuthorization: Bearer "
            + token + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /** The answer's status line and headers, up to the blank line. */
    static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0d0a0d0a) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            last4 = last4 << 8 | b;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /** The body of a short JSON refusal: what arrives until its closing brace. */
    static String readRefusal(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            body.write(b);
            if (b == '}' && body.toString(StandardCharsets.UTF_8).contains("\"message\"")) {
                break;
            }
        }
        return body.toString(StandardCharsets.UTF_8);
    }
}
