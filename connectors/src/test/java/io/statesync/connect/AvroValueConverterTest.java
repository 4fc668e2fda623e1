package io.statesync.connect;

import static io.statesync.agent.AgentTestSupport.correction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.ObservedState;
import io.statesync.schemas.Values;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class AvroValueConverterTest {

    private final AvroValueConverter converter = new AvroValueConverter();

    @Test
    void shouldRoundTripACorrectionInferringItsClassFromTheTopic() {
        converter.configure(Map.of("schema.registry.url", "mock://converter-test"), false);
        Correction c = correction("WebApp/default/shop", Action.UPDATE, 2, Map.of("replicas", 5));

        byte[] bytes = converter.fromConnectData("statesync.corrections", null, c);
        SchemaAndValue back = converter.toConnectData("statesync.corrections", bytes);

        assertThat(bytes[0]).as("Confluent wire format magic byte").isZero();
        assertThat(back.schema()).isNull();
        assertThat(back.value()).isEqualTo(c);
    }

    @Test
    void shouldUseTheConfiguredRecordClassWhateverTheTopic() {
        converter.configure(Map.of("schema.registry.url", "mock://converter-test",
            AvroValueConverter.RECORD_CLASS, ObservedState.class.getName()), false);
        ObservedState report = ObservedState.newBuilder().setKind("WebApp").setNamespace("default").setName("shop")
            .setState(Values.fromJava(Map.of("replicas", 2))).setConditions(List.of())
            .setObservedAt(Instant.parse("2026-01-01T00:00:00Z")).build();

        byte[] bytes = converter.fromConnectData("custom-topic", null, report);

        assertThat(converter.toConnectData("custom-topic", bytes).value()).isEqualTo(report);
    }

    @Test
    void shouldPassTombstonesThrough() {
        converter.configure(Map.of("schema.registry.url", "mock://converter-test"), false);

        assertThat(converter.fromConnectData("statesync.observed", null, null)).isNull();
        assertThat(converter.toConnectData("statesync.observed", null)).isEqualTo(SchemaAndValue.NULL);
    }

    @Test
    void shouldRejectValuesThatAreNotAvroRecords() {
        converter.configure(Map.of("schema.registry.url", "mock://converter-test"), false);

        assertThatThrownBy(() -> converter.fromConnectData("statesync.observed", null, "text"))
            .isInstanceOf(DataException.class);
        assertThatThrownBy(() -> converter.toConnectData("statesync.observed", new byte[] {1, 2, 3}))
            .isInstanceOf(DataException.class);
    }
}
