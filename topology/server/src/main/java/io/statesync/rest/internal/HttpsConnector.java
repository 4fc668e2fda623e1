package io.statesync.rest.internal;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.apache.kafka.common.config.types.Password;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The only connector when a key store is configured (Javalin then adds no plain one): TLS in process, so that
 * tokens never cross the network in clear text without a terminating proxy.
 */
public final class HttpsConnector {

    private HttpsConnector() {
    }

    public static Connector create(Server server, HttpConfiguration http, AppConfig config, String keystore, String host) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(keystore);
        tls.setKeyStoreType(config.getString(ServerConfig.HTTP_TLS_KEYSTORE_TYPE));
        Password password = config.getPassword(ServerConfig.HTTP_TLS_KEYSTORE_PASSWORD);
        if (password != null) {
            tls.setKeyStorePassword(password.value());
        }
        HttpConfiguration https = new HttpConfiguration(http);
        https.addCustomizer(new SecureRequestCustomizer());
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()),
            HttpConnectors.http11(https));
        connector.setHost(host);
        connector.setPort(config.getInt(ServerConfig.HTTP_PORT));
        return connector;
    }
}
