package io.statesync.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.statesync.cli.KubeconfigCommand;

import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kubectl with bearer tokens: client-go sends credentials to https servers only, so this instance serves TLS with a
 * self-signed certificate made by keytool, and kubectl trusts it with --certificate-authority.
 */
@ExtendWith(EmbeddedClusterExtension.class)
class KubectlTlsIT {

    @Test
    void shouldAuthenticateKubectlsTokenAndAnswerWrongTokensAndRolesWithStatus() throws Exception {
        Kubectl.require();
        Path dir = KubeTestApp.tempDir();
        String password = "pw-" + Long.toHexString(System.nanoTime());
        Path keyStore = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore", keyStore.toString(), "-storetype", "PKCS12",
            "-storepass", password, "-keypass", password);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            ks.load(in, password.toCharArray());
        }
        Certificate cert = ks.getCertificate("server");
        Path ca = dir.resolve("ca.pem");
        Files.writeString(ca, "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(cert.getEncoded())
            + "\n-----END CERTIFICATE-----\n");
        Map<String, Object> config = KubeTestApp.config("kubectl-tls");
        config.put(ServerConfig.HTTP_TLS_KEYSTORE_PATH, keyStore.toString());
        config.put(ServerConfig.HTTP_TLS_KEYSTORE_PASSWORD, password);
        config.put(ServerConfig.HTTP_TLS_KEYSTORE_TYPE, "PKCS12");
        try (KubeTestApp app = KubeTestApp.start(config, trusting(ks))) {
            app.putKind("Secured", Map.of());
            Kubectl writer = kubectl(dir, "writer", app.base(), KubeTestApp.WRITER);
            Kubectl reader = kubectl(dir, "reader", app.base(), KubeTestApp.READER);
            Kubectl nobody = kubectl(dir, "nobody", app.base(), "wrong");
            String doc = "apiVersion: statesync.io/v1\nkind: Secured\nmetadata:\n  name: s\nspec:\n  n: 1\n";

            Kubectl.Result created = writer.run(doc, "--certificate-authority", ca.toString(), "apply", "-f", "-");
            Kubectl.Result read = reader.run(null, "--certificate-authority", ca.toString(), "get", "secureds", "-o", "name");
            Kubectl.Result refused = reader.run(doc.replace("n: 1", "n: 2"), "--certificate-authority", ca.toString(), "apply", "-f", "-");
            Kubectl.Result unknown = nobody.run(null, "--certificate-authority", ca.toString(), "get", "secureds");

            assertThat(created.exit()).as(created.all()).isZero();
            assertThat(read.out().trim()).as(read.all()).isEqualTo("secured.statesync.io/s");
            assertThat(refused.exit()).isNotZero();
            assertThat(refused.err()).contains("Forbidden");
            assertThat(unknown.exit()).isNotZero();
            assertThat(unknown.err()).containsAnyOf("Unauthorized", "provide credentials");
        }
    }

    private static Kubectl kubectl(Path dir, String who, String server, String token) throws Exception {
        Path kubeconfig = dir.resolve(who + ".kubeconfig");
        Files.writeString(kubeconfig, KubeconfigCommand.kubeconfig(server, token));
        return new Kubectl(kubeconfig, dir.resolve(who + "-cache"));
    }

    private static SSLContext trusting(KeyStore ks) throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
    }
}
