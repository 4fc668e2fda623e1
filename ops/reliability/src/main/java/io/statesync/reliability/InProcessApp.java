package io.statesync.reliability;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;

/** A statesync instance in this JVM with its own topic prefix and application id, so runs never share state. */
public final class InProcessApp implements AutoCloseable {

    private final StatesyncApp app;
    private final AppConfig config;

    private InProcessApp(AppConfig config) {
        this.config = config;
        this.app = new StatesyncApp(config);
    }

    /** Config for a fresh, isolated instance; {@code overrides} win. */
    public static AppConfig isolatedConfig(String bootstrap, String registryUrl, Path stateDir, Map<String, Object> overrides) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> props = new HashMap<>();
        props.put(AppConfig.BOOTSTRAP_SERVERS, bootstrap);
        props.put(AppConfig.SCHEMA_REGISTRY_URL, registryUrl);
        props.put(AppConfig.TOPIC_PREFIX, "rel-" + run + ".");
        props.put(AppConfig.APPLICATION_ID, "statesync-rel-" + run);
        props.put(AppConfig.STATE_DIR, stateDir.toString());
        props.put(ServerConfig.HTTP_PORT, 0);
        props.put(ServerConfig.TOPIC_PARTITIONS, 3);
        props.put(AppConfig.NUM_STREAM_THREADS, 1);
        props.putAll(overrides);
        return new AppConfig(props);
    }

    /** Starts the app and waits (bounded) until its streams are RUNNING. */
    public static InProcessApp start(AppConfig config, Duration timeout) {
        InProcessApp app = new InProcessApp(config);
        app.app.start();
        if (!Waits.until(app.app::isRunning, timeout)) {
            app.close();
            throw new IllegalStateException("statesync did not reach RUNNING within " + timeout);
        }
        return app;
    }

    public ScenarioTarget target() {
        return new ScenarioTarget(config, app::isRunning);
    }

    /** The REST port actually bound. */
    public int httpPort() {
        return app.httpPort();
    }

    public AppConfig config() {
        return config;
    }

    @Override
    public void close() {
        app.close();
    }
}
