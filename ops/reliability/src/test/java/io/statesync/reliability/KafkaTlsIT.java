package io.statesync.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.config.AppConfig;
import io.statesync.embedded.EmbeddedKafka;
import io.statesync.embedded.ExtraListener;
import io.statesync.embedded.ChildJvm;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * statesync over TLS end to end: every Kafka client of the app (streams, admin, REST reply consumer and resource view)
 * and of the agent on a broker's SSL listener through the {@code kafka.ssl.*} pass-through, and the REST API over
 * HTTPS from {@code http.tls.keystore.*}, read with a trust store by a plain client and by the CLI; and SASL_SSL
 * behind an authorizer, with exactly the ACLs docs/security.md lists.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KafkaTlsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PATH = "/api/v1/resources/TlsProbe/default/web";

    @TempDir
    static Path shared;
    private static TlsMaterial tls;
    private static EmbeddedKafka broker;

    @TempDir
    Path workDir;

    /**
     * One broker for both tests (a broker start is the slow part): an SSL listener, and a SASL_SSL one behind an
     * authorizer that denies everything without an ACL. The PLAINTEXT, CONTROLLER and SSL listeners authenticate
     * nobody, so ANONYMOUS is the super user there.
     */
    @BeforeAll
    static void startBroker() throws Exception {
        tls = TlsMaterial.generate(shared.resolve("tls"));
        broker = EmbeddedKafka.childProcess(shared.resolve("kafka"), 0, shared.resolve("kafka.log"),
            List.of(ExtraListener.ssl(tls.keyStore(), tls.password()), KafkaAcls.saslSslListener(tls)),
            KafkaAcls.AUTHORIZER).start();
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void shouldConvergeOverAnSslListenerAndServeRestOverHttps(EmbeddedCluster cluster) throws Exception {
        Map<String, Object> overrides = Map.of(
            "kafka.security.protocol", "SSL",
            "kafka.ssl.truststore.location", tls.trustStore().toString(),
            "kafka.ssl.truststore.password", tls.password(),
            "kafka.ssl.truststore.type", "PKCS12",
            ServerConfig.HTTP_TLS_KEYSTORE_PATH, tls.keyStore().toString(),
            ServerConfig.HTTP_TLS_KEYSTORE_PASSWORD, tls.password());
        AppConfig config = InProcessApp.isolatedConfig(broker.bootstrapServers("SSL"), cluster.registryUrl(),
            workDir.resolve("state"), overrides);
        try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(60));
             LoadAgent agent = new LoadAgent(app.target())) {
            String base = "https://127.0.0.1:" + app.httpPort();
            HttpClient https = HttpClient.newBuilder().sslContext(tls.clientContext()).connectTimeout(Duration.ofSeconds(2)).build();

            HttpResponse<String> put = https.send(HttpRequest.newBuilder(URI.create(base + PATH))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":3}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);
            assertThat(Waits.until(() -> "200 Synced".equals(syncStatus(https, base + PATH)), Duration.ofSeconds(30)))
                .as("Synced over TLS, last seen %s", syncStatus(https, base + PATH)).isTrue();
            assertThat(agent.corrections()).isPositive();

            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.httpPort() + PATH)).build(), HttpResponse.BodyHandlers.ofString()))
                .as("no plain-HTTP connector").isInstanceOf(IOException.class);
            assertThat(cliGet(base, tls)).contains("Synced");
        }
    }

    /** SASL_SSL behind an authorizer: statesync and an agent, each its own principal, with exactly the ACLs of docs/security.md. */
    @Test
    void shouldConvergeOverSaslSslWithOnlyTheDocumentedAcls(EmbeddedCluster cluster) throws Exception {
        AppConfig config = InProcessApp.isolatedConfig(broker.bootstrapServers("SASL_SSL"), cluster.registryUrl(),
            workDir.resolve("state"), KafkaAcls.clientSecurity(tls, "statesync", "statesync-pw"));
        ScenarioTarget agentTarget = new ScenarioTarget(KafkaAcls.withPrincipal(config, tls, "agent", "agent-pw"), () -> true);
        KafkaAcls.grant(broker.bootstrapServers(), KafkaAcls.documented(config));

        try (InProcessApp app = InProcessApp.start(config, Duration.ofSeconds(90));
             LoadAgent agent = new LoadAgent(agentTarget)) {
            String resource = "http://127.0.0.1:" + app.httpPort() + "/api/v1/resources/AclProbe/default/web";
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(resource)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":2}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as(put.body()).isBetween(200, 201);
            assertThat(Waits.until(() -> "200 Synced".equals(syncStatus(http, resource)), Duration.ofSeconds(45)))
                .as("Synced with the documented ACLs; last seen %s", syncStatus(http, resource)).isTrue();
            assertThat(agent.corrections()).isPositive();
            KafkaAcls.assertRefusedCorrections(agentTarget);
        }
    }

    /** "status syncStatus" of a GET, or the failure. */
    private static String syncStatus(HttpClient client, String url) {
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(r.body());
            return r.statusCode() + " " + body.path("status").path("syncStatus").asText();
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The CLI in its own JVM, trusting the certificate through the standard javax.net.ssl system properties. */
    private String cliGet(String base, TlsMaterial tls) throws IOException, InterruptedException {
        List<String> command = ChildJvm.command(List.of("-Djavax.net.ssl.trustStore=" + tls.trustStore(),
                "-Djavax.net.ssl.trustStorePassword=" + tls.password(), "-Djavax.net.ssl.trustStoreType=PKCS12"),
            ChildJvm.currentClassPath(), "io.statesync.app.StatesyncMain",
            List.of("get", "TlsProbe/default/web", "--server", base, "-o", "json"));
        Path out = workDir.resolve("cli.out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = Files.readString(out);
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }
}
