package io.statesync.agent;

import io.statesync.avro.Correction;
import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.serde.AvroSerdes;
import org.apache.kafka.common.serialization.Serde;

/** The project's Avro serdes (Confluent wire format, schema registry) for the two topics an agent touches. */
public final class AgentSerdes {

    private AgentSerdes() {
    }

    public static Serde<Correction> corrections(AgentConfig config) {
        return AvroSerdes.specific(Correction.class, config.serdeConfig(), false);
    }

    public static Serde<ObservedState> observed(AgentConfig config) {
        return AvroSerdes.specific(ObservedState.class, config.serdeConfig(), false);
    }

    public static Serde<DesiredState> desired(AgentConfig config) {
        return AvroSerdes.specific(DesiredState.class, config.serdeConfig(), false);
    }

    /** An agent for {@code resourceAgent} with clients over the project's serdes. */
    public static StatesyncAgent agent(ResourceAgent resourceAgent, AgentConfig config) {
        return new StatesyncAgent(resourceAgent, config, corrections(config), observed(config));
    }
}
