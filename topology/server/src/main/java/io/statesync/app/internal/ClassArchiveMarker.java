package io.statesync.app.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the launcher that the class-data archive this JVM writes at its exit is worth keeping. {@code bin/statesync}
 * starts a JVM without an archive with {@code -XX:ArchiveClassesAtExit=<pending>} and names that file in the system
 * property {@value #PROPERTY}; the JVM writes the classes it loaded when it stops. A JVM that stopped before its
 * instance was ever ready (a bad configuration, {@code --help}) loaded only a fraction of what a start needs, and its
 * archive would serve every later start badly, so the launcher keeps a pending archive only beside the marker file
 * {@code <pending>.ready} that this class writes once the instance is ready.
 */
public final class ClassArchiveMarker {

    public static final String PROPERTY = "statesync.cds.pending";
    static final String SUFFIX = ".ready";

    private static final Logger LOG = LoggerFactory.getLogger(ClassArchiveMarker.class);
    private static final long POLL_MS = 200;

    private ClassArchiveMarker() {
    }

    /** When the launcher asked for an archive, writes the marker on a daemon thread once {@code ready} holds. */
    public static void markWhenReady(BooleanSupplier ready) {
        String pending = System.getProperty(PROPERTY, "");
        if (pending.isEmpty()) {
            return;
        }
        Thread t = new Thread(() -> awaitAndMark(Path.of(pending + SUFFIX), ready), "statesync-cds-marker");
        t.setDaemon(true);
        t.start();
    }

    static void awaitAndMark(Path marker, BooleanSupplier ready) {
        try {
            while (!ready.getAsBoolean()) {
                Thread.sleep(POLL_MS);
            }
            Files.writeString(marker, "ready\n");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // Only a faster next start is lost: that start writes an archive of its own.
            LOG.warn("Cannot mark the class-data archive as complete at {}: {}", marker, e.toString());
        }
    }
}
