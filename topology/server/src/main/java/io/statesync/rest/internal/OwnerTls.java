package io.statesync.rest.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * The TLS client side of forwards: when the REST port is HTTPS, a forward to another instance is HTTPS too, checked
 * against {@code forward.tls.truststore.path} or, without one, the certificates of this instance's own key store,
 * with the host name verified as a browser would.
 */
final class OwnerTls {

    private OwnerTls() {
    }

    /** The socket factory for forwards, or null when the REST port is plain HTTP. */
    static SSLSocketFactory fromConfig(AppConfig config) {
        String keystore = config.getString(ServerConfig.HTTP_TLS_KEYSTORE_PATH);
        if (keystore.isEmpty()) {
            return null;
        }
        String truststore = config.getString(ServerConfig.FORWARD_TLS_TRUSTSTORE_PATH);
        try {
            KeyStore trusted = truststore.isEmpty()
                ? certificatesOf(load(keystore, config.getString(ServerConfig.HTTP_TLS_KEYSTORE_TYPE),
                    config.getPassword(ServerConfig.HTTP_TLS_KEYSTORE_PASSWORD)))
                : load(truststore, "PKCS12", config.getPassword(ServerConfig.FORWARD_TLS_TRUSTSTORE_PASSWORD));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for forwards to other instances: " + e.getMessage(), e);
        }
    }

    private static KeyStore load(String path, String type, Password password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            store.load(in, password == null ? null : password.value().toCharArray());
        }
        return store;
    }

    /** Every certificate of {@code keys} (each key's whole chain) as a trusted entry: a trust manager reads only those. */
    private static KeyStore certificatesOf(KeyStore keys) throws IOException, GeneralSecurityException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        int n = 0;
        for (String alias : Collections.list(keys.aliases())) {
            Certificate[] chain = keys.getCertificateChain(alias);
            if (chain == null) {
                chain = keys.getCertificate(alias) == null ? new Certificate[0] : new Certificate[] {keys.getCertificate(alias)};
            }
            for (Certificate c : chain) {
                trusted.setCertificateEntry("c" + n++, c);
            }
        }
        return trusted;
    }
}
