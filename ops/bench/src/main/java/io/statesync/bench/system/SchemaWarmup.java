package io.statesync.bench.system;

import io.statesync.avro.DesiredState;
import io.statesync.avro.ObservedState;
import io.statesync.avro.Correction;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.avro.store.ReconcileState;
import io.statesync.registry.SchemaRegistryClient;
import io.statesync.registry.SchemaRegistryClients;
import io.statesync.topology.StatesyncTopology;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;

/**
 * Registers, from one thread and before any clock starts, the subjects that the stream threads would otherwise register
 * concurrently on their first records, so that registration stays out of what is measured: two threads registering a
 * new subject at once get HTTP 409 "artifact already exists" from Apicurio, and the loser needs a lookup more.
 */
final class SchemaWarmup {

    private SchemaWarmup() {
    }

    static void statesync(TopologySerdes serdes, TopicNames topics, String applicationId) {
        SchemaRegistryClient client = SchemaRegistryClients.forConfig(serdes.config());
        client.register(applicationId + "-" + StatesyncTopology.STATE_STORE + "-changelog-value", ReconcileState.getClassSchema());
        client.register(topics.resources() + "-value", Resource.getClassSchema());
        client.register(topics.corrections() + "-value", Correction.getClassSchema());
        client.register(topics.events() + "-value", ReconcileEvent.getClassSchema());
    }

    /** The floor contender's state changelog and the resources topic it publishes to. */
    static void floor(TopologySerdes serdes, TopicNames topics, String applicationId) {
        SchemaRegistryClient client = SchemaRegistryClients.forConfig(serdes.config());
        client.register(applicationId + "-" + FloorTopology.STORE + "-changelog-value", ReconcileState.getClassSchema());
        client.register(topics.resources() + "-value", Resource.getClassSchema());
    }

    /** The naive DSL's two source-table changelogs, named by Streams from the processor numbering. */
    static void naive(TopologySerdes serdes, TopicNames topics, String applicationId) {
        SchemaRegistryClient client = SchemaRegistryClients.forConfig(serdes.config());
        client.register(applicationId + "-" + topics.desired() + "-STATE-STORE-0000000000-changelog-value",
            DesiredState.getClassSchema());
        client.register(applicationId + "-" + topics.observed() + "-STATE-STORE-0000000003-changelog-value",
            ObservedState.getClassSchema());
    }
}
