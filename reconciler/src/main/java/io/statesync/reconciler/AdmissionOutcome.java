package io.statesync.reconciler;

/** What a desired-state write does to the stored resource. {@link #generation()} is the generation after the write. */
public sealed interface AdmissionOutcome {
    long generation();

    /** Whether anything must be stored and a new resourceVersion assigned. */
    default boolean changesResource() {
        return !(this instanceof NoOp);
    }

    /** A new resource: generation 1. */
    record Created(long generation) implements AdmissionOutcome {
    }

    /** An identical re-send: store nothing, emit nothing. */
    record NoOp(long generation) implements AdmissionOutcome {
    }

    /** Labels, annotations or finalizers changed, the spec did not: the generation stays. */
    record MetadataChanged(long generation) implements AdmissionOutcome {
    }

    /** The spec changed: the generation grows by one (metadata may have changed too). */
    record SpecChanged(long newGeneration) implements AdmissionOutcome {
        @Override
        public long generation() {
            return newGeneration;
        }
    }
}
