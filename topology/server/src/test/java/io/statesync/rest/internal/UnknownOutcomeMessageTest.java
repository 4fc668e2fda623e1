package io.statesync.rest.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UnknownOutcomeMessageTest {

    @Test
    void shouldCallTheOutcomeUnknownAndSayHowToFindOutNeverThatReSendingIsSafe() {
        for (boolean recorded : new boolean[] {true, false}) {
            String m = AdmissionClient.unknownOutcome(10_000, "req-1", recorded);
            assertThat(m).contains("outcome is UNKNOWN", "request id req-1", "GET the resource",
                "metadata.resourceVersion", "metadata.generation", "check whether the resource exists");
            assertThat(m).doesNotContain("re-sending it is safe");
        }
        assertThat(AdmissionClient.unknownOutcome(10_000, "r", true)).contains("Kafka acknowledged the write");
    }
}
