package io.statesync.topology;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.KindPolicy;
import io.statesync.avro.ObservedState;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.registry.SchemaRegistryClient;
import org.apache.avro.Schema;

/**
 * The value schema of every Avro topic statesync owns, under the registry subject Confluent's default naming gives it
 * ({@code <topic>-value}). Registering them at start lets a producer in any language that fetches the subject's latest
 * schema write before statesync has written anything; {@link #main} writes them as self-contained {@code .avsc} files
 * for the distribution, for clients that register the schema themselves.
 */
public final class TopicSchemas {

    private TopicSchemas() {
    }

    /** Subject to value schema, in topic order. The DLQ is left out: it carries whatever bytes were sent. */
    public static Map<String, Schema> valueSubjects(TopicNames topics) {
        Map<String, Schema> subjects = new LinkedHashMap<>();
        subjects.put(valueSubject(topics.desired()), DesiredState.getClassSchema());
        subjects.put(valueSubject(topics.observed()), ObservedState.getClassSchema());
        subjects.put(valueSubject(topics.corrections()), Correction.getClassSchema());
        subjects.put(valueSubject(topics.resources()), Resource.getClassSchema());
        subjects.put(valueSubject(topics.events()), ReconcileEvent.getClassSchema());
        subjects.put(valueSubject(topics.kinds()), KindPolicy.getClassSchema());
        return subjects;
    }

    public static String valueSubject(String topic) {
        return topic + "-value";
    }

    /**
     * Registers every value schema and returns subject to id. Registering a schema the subject already has returns its
     * id and changes nothing, so every instance may do it at every start.
     */
    public static Map<String, Integer> register(SchemaRegistryClient registry, TopicNames topics) {
        Map<String, Integer> ids = new LinkedHashMap<>();
        valueSubjects(topics).forEach((subject, schema) -> ids.put(subject, registry.register(subject, schema)));
        return ids;
    }

    /**
     * Each schema as one file, {@code <subject>.avsc}: Avro's own JSON of the parsed schema, in which every named type
     * is defined where it is first used, so that each file parses alone.
     */
    public static void writeAvsc(Path dir, TopicNames topics) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, Schema> e : valueSubjects(topics).entrySet()) {
            Files.writeString(dir.resolve(e.getKey() + ".avsc"), e.getValue().toString(true) + "\n", StandardCharsets.UTF_8);
        }
    }

    /** {@code TopicSchemas <directory> [topic prefix]}: the build writes the distribution's {@code schemas/} with it. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            throw new IllegalArgumentException("usage: TopicSchemas <directory> [topic prefix]");
        }
        String prefix = args.length == 2 ? args[1] : new AppConfig(Map.of()).topicPrefix();
        writeAvsc(Path.of(args[0]), new TopicNames(prefix));
    }
}
