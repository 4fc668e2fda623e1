package io.statesync.bench.system;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection over a plain socket. The load generator shares two cores with the server it
 * measures, so it must cost far less per request than {@code java.net.http.HttpClient} (an executor hand-off and
 * several allocations per call): one write, reads into a reused buffer, and the body skipped, not decoded.
 */
final class HttpConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String host;
    private final byte[] buf = new byte[64 * 1024];
    private int pos;
    private int limit;
    private String lastHeaders = "";
    private long chunkLeft;

    HttpConnection(int port) throws IOException {
        this.socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(30_000);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.host = "127.0.0.1:" + port;
    }

    /** The bytes of a GET for {@code path}, built once per path so that sending allocates nothing. */
    byte[] request(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The bytes of a {@code method} request with a JSON body, built ahead so that sending allocates nothing. Writes
     * carry a User-Agent, as every real client's do, so that each records its field manager as theirs would.
     */
    byte[] request(String method, String path, String json) {
        return request(method, path, json, "application/json");
    }

    /** As {@link #request(String, String, String)} with the body's {@code contentType}. */
    byte[] request(String method, String path, String json, String contentType) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        byte[] head = (method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: application/json\r\nUser-Agent: statesync-bench/1\r\n"
            + "Content-Type: " + contentType + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /** Sends one request and reads its whole response; returns the status code. */
    int send(byte[] request) throws IOException {
        write(request);
        return readResponse();
    }

    void write(byte[] request) throws IOException {
        out.write(request);
        out.flush();
    }

    /** One line of a chunked body that never ends (an SSE stream), without its line end. */
    String bodyLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = bodyByte(); b != '\n'; b = bodyByte()) {
            sb.append((char) b);
        }
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
    }

    private int bodyByte() throws IOException {
        if (chunkLeft == 0) {
            // The CRLF that closes the previous chunk comes first, except before the first chunk.
            String size = line();
            if (size.isEmpty()) {
                size = line();
            }
            chunkLeft = Long.parseLong(size.split(";")[0].trim(), 16);
            if (chunkLeft == 0) {
                throw new IOException("the stream ended");
            }
        }
        if (pos == limit && !fill()) {
            throw new IOException("connection closed inside a chunk");
        }
        chunkLeft--;
        return buf[pos++] & 0xff;
    }

    /** The response headers of the last request, lower-cased names, one per line. */
    String lastHeaders() {
        return lastHeaders;
    }

    /** Reads the status line and headers only: what an SSE client does before reading events. */
    int readHead(StringBuilder headers) throws IOException {
        String status = line();
        for (String l = line(); !l.isEmpty(); l = line()) {
            headers.append(l.toLowerCase(Locale.ROOT)).append('\n');
        }
        return Integer.parseInt(status.substring(9, 12));
    }

    private int readResponse() throws IOException {
        StringBuilder headers = new StringBuilder();
        int status = readHead(headers);
        lastHeaders = headers.toString();
        long length = headerValue(lastHeaders, "content-length: ");
        if (length >= 0) {
            skip(length);
        } else if (lastHeaders.contains("transfer-encoding: chunked")) {
            for (long chunk = Long.parseLong(line().trim(), 16); chunk > 0; chunk = Long.parseLong(line().trim(), 16)) {
                skip(chunk);
                line();
            }
            line();
        }
        return status;
    }

    private static long headerValue(String headers, String name) {
        int i = headers.indexOf(name);
        if (i < 0) {
            return -1;
        }
        int end = headers.indexOf('\n', i);
        return Long.parseLong(headers.substring(i + name.length(), end).trim());
    }

    /** One line without its CRLF. */
    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos == limit && !fill()) {
                if (sb.length() == 0) {
                    throw new IOException("connection closed");
                }
                return sb.toString();
            }
            byte b = buf[pos++];
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) (b & 0xff));
        }
    }

    private void skip(long n) throws IOException {
        while (n > 0) {
            if (pos == limit && !fill()) {
                throw new IOException("connection closed inside a body");
            }
            int take = (int) Math.min(n, limit - pos);
            pos += take;
            n -= take;
        }
    }

    private boolean fill() throws IOException {
        int n = in.read(buf);
        if (n <= 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
