package io.statesync.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A raw HTTP/1.1 client on plain sockets, one connection per request: the fuzz needs what regular clients refuse to
 * send (a Content-Length that lies, chunked bodies of any size, raw bytes and {@code ..} in the request target).
 */
final class RestFuzzHttp {

    /** An answer; {@code status} is -1 when the server closed the connection without one. */
    record Response(int status, Map<String, String> headers, byte[] body) {
        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final int MAX_RESPONSE_BYTES = 4 * 1_048_576;

    private final String host;
    private final int port;

    RestFuzzHttp(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /**
     * Sends the request and reads the answer. The body is written on {@code writers} while this thread reads, because
     * the server may answer (413) and stop reading long before a huge body is through.
     */
    Response send(RestFuzzRequests.Request req, ExecutorService writers) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(head(req));
            AtomicBoolean answered = new AtomicBoolean();
            Future<?> body = writers.submit(() -> {
                try {
                    writeBody(out, req, answered);
                    out.flush();
                } catch (IOException e) {
                    // The server answered and closed before taking the whole body; its answer is still readable.
                }
            });
            Response r = read(s.getInputStream(), answered);
            body.cancel(true);
            return r;
        }
    }

    private byte[] head(RestFuzzRequests.Request req) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes((req.method() + " ").getBytes(StandardCharsets.ISO_8859_1));
        b.writeBytes(req.target());
        StringBuilder h = new StringBuilder(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port)
            .append("\r\nConnection: close\r\n");
        req.headers().forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
        if (req.chunkedBytes() >= 0) {
            h.append("Transfer-Encoding: chunked\r\n");
        } else if (req.body() != null && !req.headers().containsKey("Content-Length")) {
            h.append("Content-Length: ").append(req.body().length).append("\r\n");
        }
        b.writeBytes(h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        return b.toByteArray();
    }

    /**
     * A chunked body is streamed in 8 KB chunks, so the fuzzer never holds it whole either; it stops once an answer
     * arrived, as a real client would, instead of feeding a server that drains what is left.
     */
    private static void writeBody(OutputStream out, RestFuzzRequests.Request req, AtomicBoolean answered) throws IOException {
        if (req.chunkedBytes() >= 0) {
            byte[] chunk = new byte[8_192];
            java.util.Arrays.fill(chunk, (byte) '[');
            for (long left = req.chunkedBytes(); left > 0 && !answered.get(); left -= chunk.length) {
                int n = (int) Math.min(chunk.length, left);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(chunk, 0, n);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } else if (req.body() != null) {
            out.write(req.body());
        }
    }

    private static Response read(InputStream in, AtomicBoolean answered) throws IOException {
        byte[] all = readAll(in, answered);
        int end = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (all.length == 0 || end < 0) {
            return new Response(-1, Map.of(), all);
        }
        String[] lines = new String(all, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        if (!lines[0].startsWith("HTTP/1.") || statusLine.length < 2 || !statusLine[1].matches("\\d{3}")) {
            // Reported with what arrived, so that a server writing one connection's bytes to another shows itself.
            throw new IOException("not an HTTP answer; it begins: " + printable(all, 200));
        }
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(Integer.parseInt(statusLine[1]), headers, body);
    }

    private static String printable(byte[] bytes, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, max); i++) {
            int c = bytes[i] & 0xff;
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return b.toString();
    }

    private static byte[] readAll(InputStream in, AtomicBoolean answered) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[16_384];
        int n;
        try {
            while ((n = in.read(buf)) >= 0 && out.size() < MAX_RESPONSE_BYTES) {
                answered.set(true);
                out.write(buf, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // A server that answers before reading the whole body may reset; what arrived before is the answer.
        }
        return out.toByteArray();
    }

    private static byte[] dechunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < body.length) {
            int eol = indexOf(java.util.Arrays.copyOfRange(body, i, body.length), "\r\n".getBytes(StandardCharsets.US_ASCII));
            if (eol < 0) {
                break;
            }
            int size = Integer.parseInt(new String(body, i, eol, StandardCharsets.US_ASCII).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.write(body, i + eol + 2, Math.min(size, body.length - i - eol - 2));
            i += eol + 2 + size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
