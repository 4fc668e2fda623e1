package io.statesync.embedded.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Removal of the temporary directories that test brokers and registries leave behind. */
public final class Directories {
    private static final Logger log = LoggerFactory.getLogger(Directories.class);

    private Directories() {
    }

    /** Deletes {@code dir} and everything below it; a failure is logged, not thrown, since it only wastes disk. */
    public static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            log.warn("Could not delete {}", dir, e);
        }
    }
}
