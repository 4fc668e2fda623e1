package io.statesync.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import org.apache.avro.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.statesync.registry.StubRegistryServer.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TLS to the registry with a self-signed certificate made by the JDK's keytool. */
class HttpSchemaRegistryClientTlsTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    static Path dir;

    private static Path keystore;
    private static Path truststore;

    @BeforeAll
    static void makeCertificates() throws Exception {
        keystore = dir.resolve("registry.p12");
        truststore = dir.resolve("trust.jks");
        Path cert = dir.resolve("registry.pem");
        keytool("-genkeypair", "-alias", "registry", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
            "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
            "-keystore", keystore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "registry", "-keystore", keystore.toString(),
            "-storepass", PASSWORD, "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "registry", "-file", cert.toString(), "-storetype", "JKS",
            "-keystore", truststore.toString(), "-storepass", PASSWORD);
    }

    @Test
    void shouldTrustTheRegistryCertificateFromTheConfiguredTruststore() throws Exception {
        try (var stub = StubRegistryServer.https(serverContext())) {
            stub.on("GET", "/schemas/ids/1", ok("{\"schema\":\"\\\"string\\\"\"}"));

            var client = new HttpSchemaRegistryClient(RegistryClientConfig.fromMap(Map.of(
                RegistryClientConfig.URL, stub.url(),
                RegistryClientConfig.TRUSTSTORE_LOCATION, truststore.toString(),
                RegistryClientConfig.TRUSTSTORE_PASSWORD, PASSWORD)));

            assertThat(client.getById(1).getType()).isEqualTo(Schema.Type.STRING);
        }
    }

    @Test
    void shouldRefuseTheRegistryCertificateWithoutTheTruststore() throws Exception {
        try (var stub = StubRegistryServer.https(serverContext())) {
            stub.on("GET", "/schemas/ids/1", ok("{\"schema\":\"\\\"string\\\"\"}"));

            var client = new HttpSchemaRegistryClient(RegistryClientConfig.fromMap(Map.of(
                RegistryClientConfig.URL, stub.url(), RegistryClientConfig.RETRIES, "0")));

            assertThatThrownBy(() -> client.getById(1)).isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("could not be reached");
            assertThat(stub.requests()).isEmpty();
        }
    }

    @Test
    void shouldNameTheTruststoreThatCannotBeLoaded() {
        Map<String, String> config = Map.of(RegistryClientConfig.URL, "https://localhost:1",
            RegistryClientConfig.TRUSTSTORE_LOCATION, truststore.toString(),
            RegistryClientConfig.TRUSTSTORE_PASSWORD, "wrong");

        assertThatThrownBy(() -> new HttpSchemaRegistryClient(RegistryClientConfig.fromMap(config)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(truststore.toString());
    }

    private static SSLContext serverContext() throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        Path bin = Path.of(System.getProperty("java.home"), "bin", "keytool");
        var command = new java.util.ArrayList<>(List.of(bin.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as("keytool %s: %s", args[0], out).isZero();
    }
}
