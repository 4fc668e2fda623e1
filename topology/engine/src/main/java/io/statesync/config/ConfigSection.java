package io.statesync.config;

import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration keys a module reads beyond the engine's, composed into {@link AppConfig}: a module lists its
 * section in {@code META-INF/services/io.statesync.config.ConfigSection}, so that every way of building an
 * {@link AppConfig} (the {@code run} command, the launcher, tests, benchmarks) checks and documents the same keys.
 */
public interface ConfigSection {

    /** The heading of the section in docs/configuration.md. */
    String title();

    /** The section's keys, each with doc, type, default and validator; none of them in another section. */
    ConfigDef configDef();
}
