package io.statesync.rest.internal;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

import org.apache.kafka.streams.state.HostInfo;

/**
 * One keep-alive HTTP/1.1 connection to an owner, used by one forward at a time. It reads the answer into a reused
 * buffer and keeps only what the relay needs: the status, the headers {@link KeyRouter.Forwarded} carries and the
 * body's bytes.
 */
final class OwnerConnection implements AutoCloseable {

    /** A reused connection that the owner had closed before the request reached it: nothing was answered. */
    static final class StaleConnectionException extends IOException {
        StaleConnectionException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final int BUFFER_BYTES = 16 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int limit;
    private boolean reusable;

    private OwnerConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /** Nagle is off: a request is one write, and it must not wait for the ACK of the previous answer. */
    static OwnerConnection open(HostInfo owner, int connectTimeoutMs, int readTimeoutMs, SSLSocketFactory tls)
        throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(owner.host(), owner.port()), connectTimeoutMs);
            socket.setSoTimeout(readTimeoutMs);
            return new OwnerConnection(tls == null ? socket : handshake(tls, socket, owner));
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** TLS over the connected socket, the owner's certificate checked against its advertised host name. */
    private static Socket handshake(SSLSocketFactory tls, Socket plain, HostInfo owner) throws IOException {
        SSLSocket socket = (SSLSocket) tls.createSocket(plain, owner.host(), owner.port(), true);
        SSLParameters params = socket.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        socket.setSSLParameters(params);
        socket.startHandshake();
        return socket;
    }

    /** Whether the last answer left the connection open for another request. */
    boolean reusable() {
        return reusable;
    }

    /** Writes one request and reads its whole answer. */
    KeyRouter.Forwarded exchange(byte[] request) throws IOException {
        reusable = false;
        try {
            out.write(request);
            out.flush();
            if (!fill()) {
                throw new StaleConnectionException("the owner closed the connection", null);
            }
        } catch (SocketException e) {
            throw new StaleConnectionException("the owner reset the connection", e);
        }
        Head head = readHead();
        byte[] body = readBody(head);
        reusable = head.keepAlive && (head.chunked || head.contentLength >= 0);
        return new KeyRouter.Forwarded(head.status, head.contentType == null ? "application/json" : head.contentType,
            head.etag, head.retryAfter, head.servedBy, "true".equals(head.stale), body);
    }

    /** The parts of a response head the relay uses; header names are compared case-insensitively. */
    private static final class Head {
        int status;
        String contentType;
        String etag;
        String retryAfter;
        String servedBy;
        String stale;
        long contentLength = -1;
        boolean chunked;
        boolean keepAlive = true;

        void header(String name, String value) {
            switch (name.toLowerCase(Locale.ROOT)) {
                case "content-type" -> contentType = value;
                case "etag" -> etag = value;
                case "retry-after" -> retryAfter = value;
                case "x-statesync-served-by" -> servedBy = value;
                case "x-statesync-stale" -> stale = value;
                case "content-length" -> contentLength = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> keepAlive &= !value.toLowerCase(Locale.ROOT).contains("close");
                default -> {
                }
            }
        }
    }

    private Head readHead() throws IOException {
        String statusLine = line();
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.x answer: " + statusLine);
        }
        Head head = new Head();
        head.status = Integer.parseInt(statusLine.substring(9, 12));
        head.keepAlive = statusLine.startsWith("HTTP/1.1");
        for (String l = line(); !l.isEmpty(); l = line()) {
            int colon = l.indexOf(':');
            if (colon > 0) {
                head.header(l.substring(0, colon).trim(), l.substring(colon + 1).trim());
            }
        }
        return head;
    }

    private byte[] readBody(Head head) throws IOException {
        if (head.status == 204 || head.status == 304 || head.status < 200) {
            head.contentLength = 0;
            return new byte[0];
        }
        if (head.chunked) {
            return readChunked();
        }
        if (head.contentLength >= 0) {
            return bytes(Math.toIntExact(head.contentLength));
        }
        return readToEnd();
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = chunkSize(); size > 0; size = chunkSize()) {
            body.write(bytes(size));
            line();
        }
        // Trailers, if any, end with an empty line like the head.
        for (String l = line(); !l.isEmpty(); l = line()) {
            continue;
        }
        return body.toByteArray();
    }

    private int chunkSize() throws IOException {
        String l = line();
        int ext = l.indexOf(';');
        return Integer.parseInt((ext < 0 ? l : l.substring(0, ext)).trim(), 16);
    }

    private byte[] readToEnd() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(buf, pos, limit - pos);
        pos = limit;
        in.transferTo(body);
        return body.toByteArray();
    }

    /** Exactly {@code n} bytes: what the buffer holds first, the rest straight from the socket. */
    private byte[] bytes(int n) throws IOException {
        byte[] b = new byte[n];
        int have = Math.min(n, limit - pos);
        System.arraycopy(buf, pos, b, 0, have);
        pos += have;
        while (have < n) {
            int r = in.read(b, have, n - have);
            if (r < 0) {
                throw new EOFException("the owner closed the connection inside a body");
            }
            have += r;
        }
        return b;
    }

    /** One line of the head, without its line end. */
    private String line() throws IOException {
        while (true) {
            for (int i = pos; i < limit; i++) {
                if (buf[i] == '\n') {
                    int end = i > pos && buf[i - 1] == '\r' ? i - 1 : i;
                    String l = new String(buf, pos, end - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 1;
                    return l;
                }
            }
            if (pos == 0 && limit == buf.length) {
                throw new IOException("a header line longer than " + buf.length + " bytes");
            }
            if (!fill()) {
                throw new EOFException("the owner closed the connection inside a head");
            }
        }
    }

    /** Reads more bytes after those not yet consumed; false at the end of the stream. */
    private boolean fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        int r = in.read(buf, limit, buf.length - limit);
        if (r < 0) {
            return false;
        }
        limit += r;
        return true;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a socket nobody will use again: there is nothing to do about it.
        }
    }
}
