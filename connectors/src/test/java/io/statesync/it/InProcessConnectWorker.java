package io.statesync.it;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.connect.connector.policy.AllConnectorClientConfigOverridePolicy;
import org.apache.kafka.connect.connector.policy.ConnectorClientConfigOverridePolicy;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.runtime.Herder;
import org.apache.kafka.connect.runtime.Worker;
import org.apache.kafka.connect.runtime.isolation.Plugins;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorInfo;
import org.apache.kafka.connect.runtime.standalone.StandaloneConfig;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;
import org.apache.kafka.connect.storage.FileOffsetBackingStore;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.apache.kafka.connect.util.FutureCallback;

/**
 * A real Connect standalone worker in this JVM, wired as {@code ConnectStandalone} does (file offsets, standalone
 * herder) but without its REST server, which the tests do not need and which would bind one more port. Connectors are
 * created through the herder, as the REST API would.
 */
final class InProcessConnectWorker implements AutoCloseable {

    private final StandaloneHerder herder;
    private final ClassLoader originalLoader = Thread.currentThread().getContextClassLoader();

    InProcessConnectWorker(String bootstrapServers, Path offsetsFile) {
        Map<String, String> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrapServers);
        props.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
        props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        props.put("offset.storage.file.filename", offsetsFile.toString());
        props.put("offset.flush.interval.ms", "500");
        // The plugins are on the test classpath and declare service manifests; skipping the reflective scan saves
        // many seconds.
        props.put("plugin.discovery", "service_load");
        Plugins plugins = new Plugins(props);
        plugins.compareAndSwapWithDelegatingLoader();
        StandaloneConfig config = new StandaloneConfig(props);
        ConnectorClientConfigOverridePolicy policy = new AllConnectorClientConfigOverridePolicy();
        OffsetBackingStore offsets = new FileOffsetBackingStore(
            plugins.newInternalConverter(true, JsonConverter.class.getName(), Map.of("schemas.enable", "false")));
        offsets.configure(config);
        Worker worker = new Worker("it-worker-" + UUID.randomUUID(), Time.SYSTEM, plugins, config, offsets, policy);
        herder = new StandaloneHerder(worker, config.kafkaClusterId(), policy);
        herder.start();
    }

    void putConnector(String name, Map<String, String> config) throws Exception {
        FutureCallback<Herder.Created<ConnectorInfo>> created = new FutureCallback<>();
        Map<String, String> withName = new HashMap<>(config);
        withName.put("name", name);
        herder.putConnectorConfig(name, withName, true, created);
        created.get(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        herder.stop();
        // Plugins swapped in its delegating loader; later tests in this JVM must not inherit it.
        Thread.currentThread().setContextClassLoader(originalLoader);
    }
}
