package org.apache.kafka.test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * A stand-in for the one method of Kafka's clients test fixture {@code TestUtils} that the in-process broker reaches.
 *
 * <p>kafka-test-common-runtime 4.4.0 builds an {@code SslManager} for every {@code KafkaClusterTestKit}; it calls
 * {@code TestUtils.tempFile} and {@code TestSslUtils.SslConfigsBuilder}, which live in the kafka-clients test
 * fixtures. The test kit's POM does not depend on them and they are not published for 4.4.0, so without these two
 * classes every in-process broker fails with {@code NoClassDefFoundError}. Delete both once the test kit's POM
 * brings the fixture.
 */
public final class TestUtils {

    private TestUtils() {
    }

    /** As Kafka's: an empty temporary file, deleted when the JVM exits. */
    public static File tempFile(String prefix, String suffix) throws IOException {
        File file = Files.createTempFile(prefix, suffix).toFile();
        file.deleteOnExit();
        return file;
    }
}
