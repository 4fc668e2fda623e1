package io.statesync.reliability;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checks every loaded fault scenario shares: load flowed, nothing acknowledged lost, no correction replayed, every
 * record statesync wrote decoded.
 */
final class OutcomeAssertions {

    private OutcomeAssertions() {
    }

    static void assertNothingLostNorReplayed(LoadedPipeline.Outcome load) {
        assertThat(load.ackedWrites()).isPositive();
        assertThat(load.lostWrites()).isZero();
        assertThat(load.corrections()).isPositive();
        assertThat(load.duplicateCorrections()).as("replayed corrections, samples %s", load.samples()).isZero();
        assertThat(load.undecodable()).as("undecodable records statesync wrote, samples %s", load.undecodableSamples()).isZero();
    }
}
