package io.statesync.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessKafkaIT {
    @TempDir
    Path dir;

    @Test
    void shouldKeepDataAcrossBrokerRestartAndLeaveNoProcessBehind() throws Exception {
        Set<Long> before = descendantPids();
        List<String> values = IntStream.range(0, 20).mapToObj(i -> "value-" + i).toList();
        EmbeddedKafka kafka = EmbeddedKafka.childProcess(dir.resolve("kafka"), 0, dir.resolve("logs/kafka.log"));
        long secondPid;
        try {
            String bootstrap = kafka.start().bootstrapServers();
            KafkaRoundTrip.produce(bootstrap, "persisted", values);
            long firstPid = kafka.pid().orElseThrow();
            assertThat(descendantPids()).contains(firstPid);

            kafka.stop();
            assertThat(isAlive(firstPid)).isFalse();
            assertThat(kafka.isRunning()).isFalse();
            kafka.start();

            assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
            secondPid = kafka.pid().orElseThrow();
            assertThat(secondPid).isNotEqualTo(firstPid);
            assertThat(KafkaRoundTrip.consume(bootstrap, "persisted", values.size(), Duration.ofSeconds(30)))
                    .containsExactlyElementsOf(values);
        } finally {
            kafka.close();
        }

        assertThat(isAlive(secondPid)).isFalse();
        assertThat(kafka.pid()).isEmpty();
        assertThat(descendantPids()).isSubsetOf(before);
        assertThat(dir.resolve("logs/kafka.log")).isNotEmptyFile();
    }

    @Test
    void shouldStartAgainOnExistingDataDirectoryFromNewInstance() throws Exception {
        Path dataDir = dir.resolve("kafka");
        String bootstrap;
        try (EmbeddedKafka first = EmbeddedKafka.childProcess(dataDir, 0)) {
            bootstrap = first.start().bootstrapServers();
            KafkaRoundTrip.produce(bootstrap, "reopened", List.of("one", "two"));
        }
        try (EmbeddedKafka second = EmbeddedKafka.childProcess(dataDir, 0)) {
            assertThat(second.start().bootstrapServers()).isEqualTo(bootstrap);
            assertThat(KafkaRoundTrip.consume(bootstrap, "reopened", 2, Duration.ofSeconds(30)))
                    .containsExactly("one", "two");
        }
    }

    /** Process ids only: the JDK reports no arguments for command lines as long as a broker's class path. */
    private static Set<Long> descendantPids() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
