package io.statesync.topology;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Whether the instance's Kafka Streams client is RUNNING, for work inside the topology that may wait and should not
 * compete with the client's start: the resource recount, which decodes every stored state, would otherwise take the
 * stream threads and the few cores of a small instance while they still initialise the remaining tasks. The
 * application points it at its client's state; without that (the topology test driver, benchmarks of the topology
 * alone) it counts as running. Shared with the processors through the streams properties under {@link #CONFIG_KEY}.
 */
public final class ClientRunning implements BooleanSupplier {

    public static final String CONFIG_KEY = "statesync.client.running";

    private volatile BooleanSupplier source = () -> true;

    /** Answers from {@code running} from now on. */
    public void follow(BooleanSupplier running) {
        this.source = running;
    }

    @Override
    public boolean getAsBoolean() {
        return source.getAsBoolean();
    }

    /** The instance's holder in {@code appConfigs}, or always running when it has none. */
    public static BooleanSupplier in(Map<String, Object> appConfigs) {
        return appConfigs.get(CONFIG_KEY) instanceof BooleanSupplier running ? running : () -> true;
    }
}
