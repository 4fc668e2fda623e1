package io.statesync.rest;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST server of one instance. It binds before the streams start (so that application.server is known)
 * and reports not-ready until they are RUNNING.
 */
public final class RestServer {

    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);

    private final AppConfig config;
    private final StatesyncApp app;
    private final PrometheusMeterRegistry registry;
    private Javalin javalin;
    private volatile KafkaStreams streams;

    public RestServer(AppConfig config, StatesyncApp app, PrometheusMeterRegistry registry) {
        this.config = config;
        this.app = app;
        this.registry = registry;
    }

    public void start() {
        String host = config.getString(AppConfig.HTTP_HOST);
        requireLoopbackWithoutAuth(host);
        javalin = Javalin.create(cfg -> {
            cfg.showJavalinBanner = false;
            cfg.http.maxRequestSize = config.getInt(AppConfig.HTTP_MAX_BODY_BYTES);
        });
        javalin.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
        javalin.get("/readyz", this::readyz);
        javalin.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(registry.scrape()));
        javalin.start(host, config.getInt(AppConfig.HTTP_PORT));
        LOG.info("REST listening on http://{}:{}", host, port());
    }

    private void requireLoopbackWithoutAuth(String host) {
        boolean hasTokens = config.getPassword(AppConfig.AUTH_TOKENS) != null || !config.getString(AppConfig.AUTH_TOKENS_FILE).isEmpty();
        if (hasTokens) {
            return;
        }
        try {
            if (!InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalStateException("http.host=" + host + " is not a loopback address and no auth tokens are configured;"
                    + " configure auth.tokens or auth.tokens.file, or bind to 127.0.0.1");
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Cannot resolve http.host=" + host, e);
        }
        LOG.warn("No auth tokens configured: the REST API is open, bound to loopback {} only", host);
    }

    private void readyz(Context ctx) {
        KafkaStreams s = streams;
        if (s == null) {
            ctx.status(503).json(Map.of("ready", false, "reason", "streams not started"));
        } else if (s.state() != KafkaStreams.State.RUNNING) {
            ctx.status(503).json(Map.of("ready", false, "reason", "streams state is " + s.state()));
        } else {
            ctx.json(Map.of("ready", true));
        }
    }

    public void streamsStarted(KafkaStreams streams) {
        this.streams = streams;
    }

    public int port() {
        return javalin.port();
    }

    public String advertisedServer() {
        String explicit = config.getString(AppConfig.APPLICATION_SERVER);
        return explicit.isEmpty() ? config.getString(AppConfig.HTTP_HOST) + ":" + port() : explicit;
    }

    public void stop() {
        if (javalin != null) {
            javalin.stop();
        }
    }
}
