package io.statesync.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.statesync.topology.TopicNames;
import io.statesync.topology.TopicSchemas;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution's {@code schemas/} is {@link TopicSchemas}' output, committed so that the layout needs no code run
 * at packaging; this keeps it equal to what the contract's classes give.
 */
class DistributionSchemasTest {

    private static final Path SHIPPED = Path.of("src/main/dist/schemas");
    private static final String REGENERATE = "regenerate with: java -cp 'ops/dist/target/statesync/lib/*' "
        + "io.statesync.topology.TopicSchemas ops/dist/src/main/dist/schemas (after mvn -o -pl ops/dist -am package -DskipTests)";

    @Test
    void shouldShipTheCurrentValueSchemaOfEveryTopic(@TempDir Path generated) throws IOException {
        TopicSchemas.main(new String[] {generated.toString()});
        assertThat(contents(SHIPPED)).as(REGENERATE).isEqualTo(contents(generated));
        assertThat(contents(SHIPPED)).containsOnlyKeys("statesync.desired-value.avsc", "statesync.observed-value.avsc",
            "statesync.corrections-value.avsc", "statesync.resources-value.avsc", "statesync.events-value.avsc",
            "statesync.kinds-value.avsc");
    }

    @Test
    void shouldParseEachSchemaFileOnItsOwn() throws IOException {
        Map<String, Schema> expected = TopicSchemas.valueSubjects(new TopicNames("statesync."));
        for (Map.Entry<String, String> file : contents(SHIPPED).entrySet()) {
            // A fresh parser knows no named type: every one the schema uses must be defined inside the file.
            Schema parsed = new Schema.Parser().parse(file.getValue());
            assertThat(parsed).as(file.getKey()).isEqualTo(expected.get(file.getKey().replace(".avsc", "")));
        }
    }

    private static Map<String, String> contents(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                out.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        return out;
    }
}
