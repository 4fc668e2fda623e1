package io.statesync.connect;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Opens the package-private {@link FakeActuator} to the integration tests in another package. */
public final class FakeActuatorAccess implements AutoCloseable {

    private final FakeActuator actuator;

    public FakeActuatorAccess() throws java.io.IOException {
        actuator = new FakeActuator();
    }

    public String urlTemplate() {
        return actuator.urlTemplate();
    }

    public String listUrl() {
        return actuator.listUrl();
    }

    public int size() {
        return actuator.items.size();
    }

    /** The stored spec of an item; changing it is drift. */
    public ObjectNode spec(String key) {
        return (ObjectNode) actuator.items.get(key).get("spec");
    }

    /** Makes every write to {@code key} fail with 400. */
    public void reject(String key) {
        actuator.rejected.add(key);
    }

    @Override
    public void close() {
        actuator.close();
    }
}
