package io.statesync.topology;

/**
 * The names of the topology's nodes, stores and sinks, and the Streams property that names the DLQ topic: one home for
 * what {@link StatesyncTopology#build} wires and what the processors forward to and read, so that the processors need
 * not depend on the class that builds them.
 */
public final class TopologyNames {

    public static final String STATE_STORE = "statesync-state";
    public static final String TIMER_STORE = "statesync-timers";
    public static final String REVISION_STORE = "statesync-revisions";
    public static final String KINDS_STORE = "statesync-kinds";
    /** The dependents index of the owners a task holds: {@code ownerKey|dependentKey} to a dependent record. */
    public static final String DEPENDENTS_STORE = "statesync-dependents";

    public static final String DESIRED_SOURCE = "desired-source";
    public static final String OBSERVED_SOURCE = "observed-source";
    public static final String KINDS_SOURCE = "kinds-source";
    public static final String DEPENDENTS_SOURCE = "dependents-source";
    public static final String COLLECT_SOURCE = "collect-source";
    public static final String DEPENDENTS_INDEX = "dependents-index";
    public static final String COLLECT = "collect";
    public static final String DEPENDENTS_SINK = "dependents-sink";
    public static final String COLLECT_SINK = "collect-sink";
    public static final String ADMISSION = "admission";
    public static final String OBSERVATION = "observation";
    public static final String KINDS_UPDATER = "kinds-updater";
    public static final String RESOURCES_SINK = "resources-sink";
    public static final String CORRECTIONS_SINK = "corrections-sink";
    public static final String EVENTS_SINK = "events-sink";
    public static final String DLQ_SINK = "dlq-sink";
    public static final String DEFINITIONS_SINK = "definitions-sink";

    /** Streams property that tells the DLQ exception handlers where dead letters go. */
    public static final String DLQ_TOPIC_CONFIG = "statesync.dlq.topic";

    private TopologyNames() {
    }
}
