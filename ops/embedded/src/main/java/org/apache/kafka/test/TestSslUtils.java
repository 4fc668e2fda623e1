package org.apache.kafka.test;

import java.io.File;
import java.io.IOException;
import java.util.Map;

import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.network.ConnectionMode;

/**
 * A stand-in for the part of Kafka's clients test fixture that the in-process broker reaches; see {@link TestUtils}.
 *
 * <p>kafka-test-common-runtime 4.4.0 asks for a server SSL configuration while building every
 * {@code KafkaClusterTestKit} and applies it only to SSL listeners. The embedded broker has none, so this builder
 * creates no certificates: it names an empty key store and the given trust store, which is all the test kit reads
 * from the map. An SSL listener on the in-process broker would therefore fail to start; the child-process broker's
 * SSL listeners ({@code ExtraListener}) do not go through this class.
 */
public final class TestSslUtils {

    private TestSslUtils() {
    }

    public static final class SslConfigsBuilder {
        private File trustStore;

        public SslConfigsBuilder(ConnectionMode mode) {
        }

        public SslConfigsBuilder createNewTrustStore(File trustStoreFile) {
            this.trustStore = trustStoreFile;
            return this;
        }

        public SslConfigsBuilder useExistingTrustStore(File trustStoreFile) {
            this.trustStore = trustStoreFile;
            return this;
        }

        public Map<String, Object> build() throws IOException {
            File keyStore = TestUtils.tempFile("keystore", ".jks");
            return Map.of(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keyStore.getPath(),
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, trustStore == null ? "" : trustStore.getPath());
        }
    }
}
