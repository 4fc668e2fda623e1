package io.statesync.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.embedded.junit.EmbeddedCluster;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * REST access control and secret hygiene against a real app: roles enforced, tokens never in the log (a child
 * process at DEBUG whose whole output is searched), and the open default bound to loopback only (checked from a
 * network namespace of the test's own).
 */
@ExtendWith(EmbeddedClusterExtension.class)
class SecurityIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final String PATH = "/api/v1/resources/SecurityProbe/default/";

    @TempDir
    Path workDir;

    @Test
    void shouldEnforceRolesAndNeverLogATokenEvenAtDebug(EmbeddedCluster cluster) throws Exception {
        String writer = "wtok-" + UUID.randomUUID();
        String reader = "rtok-" + UUID.randomUUID();
        String fromFile = "ftok-" + UUID.randomUUID();
        Path tokensFile = Files.writeString(workDir.resolve("tokens"), "# readers\n" + fromFile + ":reader\n");
        String forwardSecret = "fsec-" + UUID.randomUUID();
        Map<String, Object> overrides = Map.of(ServerConfig.AUTH_TOKENS, writer + ":writer," + reader + ":reader",
            ServerConfig.AUTH_TOKENS_FILE, tokensFile.toString(), ServerConfig.FORWARD_SECRET, forwardSecret);
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), workDir.resolve("state"),
            overrides);
        Path log = workDir.resolve("statesync.log");
        // The product's logging configuration (not this module's logback-test.xml), at DEBUG.
        List<String> jvm = List.of("-Dlogback.configurationFile=logback.xml", "-Dlog.level=DEBUG");
        try (ChildApp app = new ChildApp(config, log, jvm)) {
            app.startAndAwaitReady(Duration.ofSeconds(60));
            String base = "http://127.0.0.1:" + app.httpPort();

            assertThat(send(put(base, "a", null))).isEqualTo(401);
            assertThat(send(put(base, "a", "not-" + writer))).isEqualTo(401);
            assertThat(send(put(base, "a", reader))).isEqualTo(403);
            assertThat(send(put(base, "a", fromFile))).isEqualTo(403);
            assertThat(send(get(base, "a", null))).isEqualTo(401);
            assertThat(send(put(base, "a", writer))).isBetween(200, 201);
            assertThat(send(get(base, "a", reader))).isEqualTo(200);
            assertThat(send(get(base, "a", fromFile))).isEqualTo(200);
            assertThat(send(get(base, "a", writer))).isEqualTo(200);
            // A token where none belongs (as a name and in a query) must not be echoed into the log either.
            send(get(base, writer, writer));
            send(HttpRequest.newBuilder(URI.create(base + "/api/v1/resources?kind=" + reader)).build());
        }
        String output = Files.readString(log);
        assertThat(output).as("the startup config dump ran, with the tokens masked").contains("auth.tokens").contains("[hidden]");
        assertThat(output).as("DEBUG lines were written").contains(" DEBUG ");
        assertThat(output).doesNotContain(writer).doesNotContain(reader).doesNotContain(fromFile).doesNotContain(forwardSecret);
    }

    /**
     * Off loopback means from another network stack: a namespace joined to this one by a veth pair
     * ({@link OffHostNetwork}), made for the test and removed after it. A listener on all addresses must be reachable
     * from it (else the check below would prove nothing), and the app's port must be refused there, and on this
     * machine's own address on the pair. Where the namespace cannot be made (not root, no iproute2, no veth), the test
     * is skipped with the reason, never passed.
     */
    @Test
    void shouldBindTheOpenDefaultToLoopbackOnly(EmbeddedCluster cluster) throws Exception {
        assertThat(InetAddress.getByName(new AppConfig(Map.of()).getString(ServerConfig.HTTP_HOST)).isLoopbackAddress())
            .as("the default http.host, which `statesync up` keeps").isTrue();
        OffHostNetwork network;
        try {
            network = OffHostNetwork.create();
        } catch (IOException e) {
            Assumptions.abort("no other host to check from: cannot make a network namespace with a veth pair (needs root"
                + " and iproute2): " + e.getMessage());
            return;
        }
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), workDir.resolve("state"),
            Map.of());
        try (network; StatesyncApp app = new StatesyncApp(config); ServerSocket everywhere = new ServerSocket(0, 50, null)) {
            OffHostNetwork.Attempt control = network.connectFromNamespace(network.hostAddress(), everywhere.getLocalPort());
            Assumptions.assumeTrue(control.outcome() == OffHostNetwork.Connect.CONNECTED, () -> "the " + network
                + " cannot reach a listener on all addresses (" + control + "), so it cannot tell a loopback-only bind");
            app.start();
            int port = app.httpPort();
            assertThat(connects(InetAddress.getLoopbackAddress(), port)).as("reachable on loopback").isTrue();
            OffHostNetwork.Attempt offHost = network.connectFromNamespace(network.hostAddress(), port);
            assertThat(offHost.outcome()).as("the app's port from the %s: %s", network, offHost)
                .isEqualTo(OffHostNetwork.Connect.REFUSED);
            assertThat(connects(network.hostAddress(), port)).as("reachable on " + network.hostAddress()).isFalse();
        }
    }

    @Test
    void shouldRefuseToStartOnANonLoopbackHostWithoutTokens(EmbeddedCluster cluster) {
        Map<String, Object> open = new HashMap<>(Map.of(ServerConfig.HTTP_HOST, "0.0.0.0"));
        AppConfig config = InProcessApp.isolatedConfig(cluster.bootstrapServers(), cluster.registryUrl(), workDir.resolve("state"),
            open);
        try (StatesyncApp app = new StatesyncApp(config)) {
            assertThatThrownBy(app::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("http.host=0.0.0.0 is not a loopback address").hasMessageContaining("auth.tokens");
        }
    }

    private static HttpRequest put(String base, String name, String token) {
        return withToken(HttpRequest.newBuilder(URI.create(base + PATH + name)).header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"spec\":{\"replicas\":1}}")), token).build();
    }

    private static HttpRequest get(String base, String name, String token) {
        return withToken(HttpRequest.newBuilder(URI.create(base + PATH + name)), token).build();
    }

    private static HttpRequest.Builder withToken(HttpRequest.Builder b, String token) {
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    private static int send(HttpRequest request) throws IOException, InterruptedException {
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static boolean connects(InetAddress address, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
