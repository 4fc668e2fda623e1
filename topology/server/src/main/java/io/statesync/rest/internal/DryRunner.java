package io.statesync.rest.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.topology.ResourceKey;

/** Runs the admission rules for a write or a delete and stores nothing; refusals are thrown as ApiErrors. */
public interface DryRunner {

    /** A dry run's answer: the status a real write would get and the object as it would be stored. */
    record DryRun(int code, ObjectNode object) {
    }

    DryRun write(ResourceKey key, DesiredState desired) throws InterruptedException;

    DryRun delete(ResourceKey key, String expectedResourceVersion) throws InterruptedException;
}
