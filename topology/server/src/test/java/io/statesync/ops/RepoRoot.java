package io.statesync.ops;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository root for tests that check files outside the module (docs/, ops/). */
final class RepoRoot {

    private RepoRoot() {
    }

    /** {@code -Dstatesync.repo.root} when set, else the first directory upward from the working dir holding the root pom and docs/. */
    static Path find() {
        String configured = System.getProperty("statesync.repo.root");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("docs"))
                && Files.isDirectory(dir.resolve("topology"))) {
                return dir;
            }
        }
        throw new IllegalStateException("Cannot find the repository root upward from " + Path.of("").toAbsolutePath()
            + "; set -Dstatesync.repo.root=<path>");
    }
}
