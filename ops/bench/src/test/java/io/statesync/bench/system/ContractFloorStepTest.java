package io.statesync.bench.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.EventType;
import io.statesync.avro.FieldOp;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Reason;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.SyncStatus;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency suite's contract floor answers that suite's writes with the records, and fields, the contract asks for. */
class ContractFloorStepTest {

    private static final String KEY = Workload.key(7);

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<String, DesiredState> desired;
    private TestInputTopic<String, ObservedState> observed;
    private TestOutputTopic<String, Resource> resources;
    private TestOutputTopic<String, Correction> corrections;
    private TestOutputTopic<String, ReconcileEvent> events;

    @BeforeEach
    void start() {
        AppConfig config = new AppConfig(Map.of(AppConfig.SCHEMA_REGISTRY_URL, "mock://floor-" + UUID.randomUUID(),
            AppConfig.STATE_DIR, stateDir.toString()));
        TopicNames topics = new TopicNames(config.topicPrefix());
        TopologySerdes serdes = new TopologySerdes(config);
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "contract-floor-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        driver = new TopologyTestDriver(FloorTopology.contract(config), props);
        desired = driver.createInputTopic(topics.desired(), new StringSerializer(), serdes.desired().serializer());
        observed = driver.createInputTopic(topics.observed(), new StringSerializer(), serdes.observed().serializer());
        resources = driver.createOutputTopic(topics.resources(), new StringDeserializer(), serdes.resource().deserializer());
        corrections = driver.createOutputTopic(topics.corrections(), new StringDeserializer(), serdes.correction().deserializer());
        events = driver.createOutputTopic(topics.events(), new StringDeserializer(), serdes.event().deserializer());
    }

    @AfterEach
    void stop() {
        driver.close();
    }

    @Test
    void shouldPublishAVersionedProgressingResourceAndAPatchedCorrectionForADesiredWrite() {
        desired.pipeInput(KEY, Workload.desired(7, Workload.spec(1, 3)));

        Resource r = resources.readValue();
        assertThat(r.getMetadata().getGeneration()).isEqualTo(1);
        assertThat(r.getMetadata().getResourceVersion()).isNotEmpty();
        assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing);
        assertThat(r.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus())
            .containsExactly("Synced=False", "Progressing=True", "Stalled=False", "ObservedStale=False");
        assertThat(r.getStatus().getDiff()).hasSize(5);
        Correction c = corrections.readValue();
        assertThat(r.getStatus().getLastCorrection().getCommandId()).isEqualTo(c.getCommandId());
        assertThat(c.getReason()).isEqualTo(Reason.SpecChanged);
        assertThat(c.getPatch()).extracting(op -> String.join(".", op.getPath()))
            .containsExactlyInAnyOrder("image", "replicas", "port", "env", "containers");
        assertThat(c.getDesiredSpec()).isEqualTo(r.getSpec());
        assertThat(events.isEmpty()).isTrue();
    }

    @Test
    void shouldPublishSyncedWithAConvergedEventWhenTheAgentReportsTheSpec() {
        desired.pipeInput(KEY, Workload.desired(7, Workload.spec(1, 3)));
        Resource progressing = resources.readValue();
        observed.pipeInput(KEY, Workload.observed(7, 1, Workload.spec(1, 3), corrections.readValue().getCommandId()));

        Resource synced = resources.readValue();
        assertThat(synced.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Synced);
        assertThat(synced.getStatus().getObservedGeneration()).isEqualTo(1);
        assertThat(synced.getStatus().getConvergedAt()).isNotNull();
        assertThat(synced.getStatus().getDiff()).isEmpty();
        assertThat(Long.parseLong(synced.getMetadata().getResourceVersion()))
            .isGreaterThan(Long.parseLong(progressing.getMetadata().getResourceVersion()));
        // The conditions that kept their status keep their transition time.
        assertThat(synced.getStatus().getConditions().get(2).getLastTransitionTime())
            .isEqualTo(progressing.getStatus().getConditions().get(2).getLastTransitionTime());
        ReconcileEvent e = events.readValue();
        assertThat(e.getType()).isEqualTo(EventType.Converged);
        assertThat(e.getGeneration()).isEqualTo(1);
        assertThat(corrections.isEmpty()).isTrue();
    }

    @Test
    void shouldCorrectOnlyTheDriftedFieldWhenTheAgentReportsADriftAtTheCurrentGeneration() {
        desired.pipeInput(KEY, Workload.desired(7, Workload.spec(0, 3)));
        corrections.readValue();
        observed.pipeInput(KEY, Workload.observed(7, 1, Workload.spec(0, 3), null));
        observed.pipeInput(KEY, withObservedAt(Workload.observed(7, 1, Workload.spec(0, 4), null), Instant.now().plusSeconds(1)));

        Correction c = corrections.readValue();
        assertThat(c.getReason()).isEqualTo(Reason.Drift);
        assertThat(c.getPatch()).extracting(FieldOp::getPath).containsExactly(List.of("replicas"));
        assertThat(resources.readValuesToList()).last()
            .satisfies(r -> assertThat(r.getStatus().getSyncStatus()).isEqualTo(SyncStatus.Progressing));
        assertThat(events.readValuesToList()).extracting(ReconcileEvent::getType).containsExactly(EventType.Converged);
    }

    private static ObservedState withObservedAt(ObservedState o, Instant at) {
        o.setObservedAt(at);
        return o;
    }
}
