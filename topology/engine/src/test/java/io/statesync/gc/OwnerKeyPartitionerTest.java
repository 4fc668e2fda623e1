package io.statesync.gc;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerKeyPartitionerTest {

    @Test
    void shouldSendAnIndexRecordToThePartitionTheDefaultPartitionerPicksForTheOwnersKey() {
        for (int i = 0; i < 500; i++) {
            String owner = "WebApp/default/app-" + i;
            int expected = BuiltInPartitioner.partitionForKey(owner.getBytes(StandardCharsets.UTF_8), 12);

            var chosen = new OwnerKeyPartitioner().partitions("statesync.dependents",
                DependentRecord.key(owner, "Deployment/default/dep-" + i), new byte[0], 12);

            assertThat(chosen).hasValueSatisfying(p -> assertThat(p).containsExactly(expected));
        }
    }
}
