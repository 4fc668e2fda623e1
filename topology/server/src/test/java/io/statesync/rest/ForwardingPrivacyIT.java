package io.statesync.rest;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;


import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.statesync.rest.RestTestApp.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of one application with HTTPS on their REST ports. A read of a key the other instance owns is
 * forwarded over TLS with the instances' own signed credential: instance b does not know the token the caller gave
 * instance a, and still answers. The internal forward headers a client sends are ignored: they neither skip the
 * token check nor the routing.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class ForwardingPrivacyIT {

    private static final int KEYS = 12;
    /** A reader token only instance a knows: what crosses to b cannot be this token. */
    private static final String ONLY_A = "only-a-" + UUID.randomUUID();

    private static RestTestApp a;
    private static RestTestApp b;
    private static String keyOfB;
    private static String keyOfA;

    @BeforeAll
    static void start() throws Exception {
        Path dir = RestTestApp.tempDir();
        String password = "pw-" + UUID.randomUUID();
        Path keyStore = selfSignedKeyStore(dir, password);
        Map<String, Object> configA = RestTestApp.config("forward-tls", RestTestApp.prefix("forward-tls"));
        configA.put(ServerConfig.HTTP_TLS_KEYSTORE_PATH, keyStore.toString());
        configA.put(ServerConfig.HTTP_TLS_KEYSTORE_PASSWORD, password);
        configA.put(ServerConfig.FORWARD_SECRET, "shared-" + UUID.randomUUID());
        Map<String, Object> configB = RestTestApp.sameAppOwnState(configA);
        configA.put(ServerConfig.AUTH_TOKENS, RestTestApp.WRITER + ":writer," + RestTestApp.READER + ":reader," + ONLY_A + ":reader");
        SSLContext tls = trusting(keyStore, password);
        a = RestTestApp.startHttps(configA, tls);
        b = RestTestApp.startHttps(configB, tls);
        a.awaitReady();
        for (int k = 0; k < KEYS; k++) {
            HttpResponse<String> put = a.as(RestTestApp.WRITER).put(path(k), body(Map.of("k", k), Map.of()));
            assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        }
        String bHost = "127.0.0.1:" + b.app.httpPort();
        await().atMost(Duration.ofSeconds(60)).until(() -> IntStream.range(0, KEYS).anyMatch(k -> ownerOf(k).equals(bHost))
            && IntStream.range(0, KEYS).anyMatch(k -> !ownerOf(k).equals(bHost)));
        keyOfB = path(IntStream.range(0, KEYS).filter(k -> ownerOf(k).equals(bHost)).findFirst().orElseThrow());
        keyOfA = path(IntStream.range(0, KEYS).filter(k -> !ownerOf(k).equals(bHost)).findFirst().orElseThrow());
    }

    @AfterAll
    static void stop() {
        RestTestApp.closeAll(b, a);
    }

    @Test
    void shouldForwardOverTlsWithTheInstanceCredentialInsteadOfTheCallersToken() throws Exception {
        HttpResponse<String> forwarded = diffEventually(a.as(ONLY_A), keyOfB);
        assertThat(forwarded.statusCode()).as(forwarded.body()).isEqualTo(200);
        assertThat(forwarded.headers().firstValue("X-Statesync-Served-By")).as("answered by the owner, over TLS")
            .hasValue("127.0.0.1:" + b.app.httpPort());
        assertThat(forwarded.headers().firstValue("X-Statesync-Stale")).isEmpty();
        assertThat(diffEventually(a.as(ONLY_A), keyOfA).headers().firstValue("X-Statesync-Served-By"))
            .hasValue("127.0.0.1:" + a.app.httpPort());
        assertThat(b.as(ONLY_A).get(keyOfB + "/diff").statusCode())
            .as("b does not know the caller's token, so the forward did not carry it").isEqualTo(401);
        a.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    @Test
    void shouldNeitherSkipTheTokenNorTheRoutingForAClientSentForwardedHeader() throws Exception {
        String[] forged = {"X-Statesync-Forwarded", "1", "X-Statesync-Forwarded-Role", "writer",
            "X-Statesync-Forwarded-Signature", System.currentTimeMillis() / 1000 + "." + "00".repeat(32)};
        for (RestTestApp app : List.of(a, b)) {
            assertThat(app.as(null).send("GET", keyOfB + "/diff", null, null, forged).statusCode()).isEqualTo(401);
            assertThat(app.as(null).send("GET", keyOfB, null, null, forged).statusCode()).isEqualTo(401);
            assertThat(app.as(null).send("PUT", keyOfB, Map.of("spec", Map.of()), "application/json", forged).statusCode())
                .isEqualTo(401);
            assertThat(app.as(RestTestApp.READER).send("PUT", keyOfB, Map.of("spec", Map.of()), "application/json", forged)
                .statusCode()).isEqualTo(403);
        }
        diffEventually(a.as(RestTestApp.READER), keyOfB);
        HttpResponse<String> routed = a.as(RestTestApp.READER).send("GET", keyOfB + "/diff", null, null,
            "X-Statesync-Forwarded", "1");
        assertThat(routed.statusCode()).as(routed.body()).isEqualTo(200);
        assertThat(routed.headers().firstValue("X-Statesync-Served-By")).as("still forwarded to the owner")
            .hasValue("127.0.0.1:" + b.app.httpPort());
        a.assertEveryPartitionAdmits(3, Duration.ofSeconds(5));
    }

    /** The key's diff, once its owner's store has it (404 or 503 while the write or a rebalance is under way). */
    private static HttpResponse<String> diffEventually(RestTestApp app, String key) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        HttpResponse<String> r = app.get(key + "/diff");
        while ((r.statusCode() == 503 || r.statusCode() == 404) && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
            r = app.get(key + "/diff");
        }
        return r;
    }

    private static String ownerOf(int k) {
        var md = a.app.streams().queryMetadataForKey(StatesyncTopology.STATE_STORE, "WebApp/default/fwd-" + k,
            Serdes.String().serializer());
        return md.activeHost().host() + ":" + md.activeHost().port();
    }

    private static String path(int k) {
        return "/api/v1/resources/WebApp/default/fwd-" + k;
    }

    /** A server certificate for 127.0.0.1 and localhost, made with the JDK's keytool so that no key is checked in. */
    private static Path selfSignedKeyStore(Path dir, String password) throws IOException, InterruptedException {
        Path store = dir.resolve("server.p12");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", store.toString(), "-storetype", "PKCS12",
            "-storepass", password, "-keypass", password));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("keytool: " + output).isTrue();
        return store;
    }

    private static SSLContext trusting(Path keyStore, String password) throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            keys.load(in, password.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", keys.getCertificate("server"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
