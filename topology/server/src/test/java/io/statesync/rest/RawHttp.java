package io.statesync.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/** HTTP/1.1 on a plain socket, for requests that java.net.http refuses to send (raw '%', chunked bodies of any size). */
final class RawHttp {

    /** The status and body of an answer; {@code sentWhenAnswered} counts body bytes sent when the status line arrived. */
    record Answer(int status, String body, long sentWhenAnswered) {
    }

    private RawHttp() {
    }

    /** {@code method target} with a bearer token and optional extra header lines, without a body. */
    static Answer send(String base, String method, String target, String token, String... headerLines) throws IOException {
        return exchange(base, method + " " + target, token, -1, headerLines);
    }

    /** A PUT with a chunked JSON body of {@code bytes} bytes, streamed while the answer is read. */
    static Answer putChunked(String base, String target, String token, long bytes) throws IOException {
        return exchange(base, "PUT " + target, token, bytes, "Content-Type: application/json", "Transfer-Encoding: chunked");
    }

    private static Answer exchange(String base, String requestLine, String token, long chunked, String... headerLines)
        throws IOException {
        URI uri = URI.create(base);
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            s.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder(requestLine).append(" HTTP/1.1\r\nHost: ").append(uri.getHost())
                .append("\r\nConnection: close\r\nAuthorization: Bearer ").append(token).append("\r\n");
            for (String h : headerLines) {
                head.append(h).append("\r\n");
            }
            OutputStream out = s.getOutputStream();
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            AtomicLong sent = new AtomicLong();
            if (chunked >= 0) {
                Thread writer = new Thread(() -> streamChunks(out, chunked, sent), "raw-http-body");
                writer.setDaemon(true);
                writer.start();
            }
            return read(s.getInputStream(), sent);
        }
    }

    private static void streamChunks(OutputStream out, long total, AtomicLong sent) {
        byte[] chunk = new byte[8_192];
        Arrays.fill(chunk, (byte) '[');
        byte[] size = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
        try {
            while (sent.get() < total) {
                out.write(size);
                out.write(chunk);
                out.write(crlf);
                sent.addAndGet(chunk.length);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException closed) {
            // the server answered and closed the connection
        }
    }

    private static Answer read(InputStream in, AtomicLong sent) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        long sentWhenAnswered = -1;
        byte[] buf = new byte[8_192];
        int n;
        try {
            while ((n = in.read(buf)) >= 0) {
                if (sentWhenAnswered < 0) {
                    sentWhenAnswered = sent.get();
                }
                all.write(buf, 0, n);
            }
        } catch (SocketException reset) {
            // a reset after the answer, because the body was not read to its end
        }
        String text = all.toString(StandardCharsets.UTF_8);
        int status = Integer.parseInt(text.substring(9, 12));
        int bodyAt = text.indexOf("\r\n\r\n");
        String body = text.substring(bodyAt + 4);
        if (text.substring(0, bodyAt).toLowerCase().contains("transfer-encoding: chunked")) {
            body = body.substring(body.indexOf("\r\n") + 2, body.lastIndexOf("\r\n0\r\n"));
        }
        return new Answer(status, body, sentWhenAnswered);
    }
}
