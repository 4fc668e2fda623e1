package io.statesync.embedded.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Asks Testcontainers whether a Docker engine is reachable, never failing when it is not or when it is absent. */
public final class DockerProbe {
    private static final Logger log = LoggerFactory.getLogger(DockerProbe.class);

    private DockerProbe() {
    }

    public static boolean dockerAvailable() {
        try {
            return Probe.available();
        } catch (Throwable e) {
            // A missing Testcontainers jar (NoClassDefFoundError) or a broken Docker setup both mean "no Docker".
            log.debug("Docker is not usable: {}", e.toString());
            return false;
        }
    }

    /** Kept apart so that Testcontainers' classes are resolved only inside the guarded call. */
    private static final class Probe {
        static boolean available() {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        }
    }
}
