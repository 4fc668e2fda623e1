package io.statesync.rest.internal;

import java.io.IOException;
import java.time.Duration;

import io.javalin.http.Context;
import jakarta.servlet.ServletInputStream;

/**
 * Jetty closes a connection whose request body was left unread; a client still sending that body then loses the 413
 * with the connection. Up to {@link #DRAIN_LIMIT_BYTES} of it are read and dropped first, so that the client gets
 * its answer; a body larger than that still closes the connection. Only bytes already arrived are read, for at
 * most {@link #DRAIN_TIME}, so that a client announcing more than it sends cannot hold the handler.
 */
public final class OversizedBodies {

    /** How much of an oversized body is read and dropped so that its sender still gets the 413. */
    private static final long DRAIN_LIMIT_BYTES = 4L * 1024 * 1024;
    private static final Duration DRAIN_TIME = Duration.ofSeconds(2);

    private OversizedBodies() {
    }

    public static void drain(Context ctx) {
        long left = Math.min(DRAIN_LIMIT_BYTES, Math.max(0, ctx.req().getContentLengthLong()));
        long deadline = System.nanoTime() + DRAIN_TIME.toNanos();
        byte[] buffer = new byte[16_384];
        try {
            ServletInputStream in = ctx.req().getInputStream();
            while (left > 0 && !in.isFinished() && System.nanoTime() < deadline) {
                int ready = in.available();
                if (ready <= 0) {
                    Thread.sleep(2);
                    continue;
                }
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, Math.min(ready, left)));
                if (read < 0) {
                    return;
                }
                left -= read;
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException endedEarly) {
            // A body shorter than announced, or a client that stopped sending: the answer goes out all the same.
        }
    }
}
