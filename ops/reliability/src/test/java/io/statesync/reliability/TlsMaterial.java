package io.statesync.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed server certificate for localhost and 127.0.0.1 in a PKCS12 key store, and a trust store holding it,
 * made with the JDK's own keytool, so that no key material is checked in.
 */
record TlsMaterial(Path keyStore, Path trustStore, String password) {

    static TlsMaterial generate(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String password = "pw-" + Long.toHexString(System.nanoTime());
        Path keyStore = dir.resolve("server.p12");
        Path cert = dir.resolve("server.crt");
        Path trustStore = dir.resolve("truststore.p12");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
            "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
            "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-alias", "server", "-keystore", keyStore.toString(), "-storepass", password, "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", cert.toString(),
            "-keystore", trustStore.toString(), "-storetype", "PKCS12", "-storepass", password);
        return new TlsMaterial(keyStore, trustStore, password);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
        }
    }

    /** A client context that trusts exactly this certificate. */
    SSLContext clientContext() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(trustStore)) {
            trust.load(in, password.toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
