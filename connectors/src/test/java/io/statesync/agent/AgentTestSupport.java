package io.statesync.agent;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.statesync.avro.Action;
import io.statesync.avro.Correction;
import io.statesync.avro.Reason;
import io.statesync.schemas.Values;

/** Builders shared by the agent and simulator tests. */
public final class AgentTestSupport {

    private AgentTestSupport() {
    }

    public static Correction correction(String key, Action action, long generation, Map<String, Object> spec) {
        ResourceRef ref = ResourceRef.parse(key);
        return Correction.newBuilder()
            .setCommandId(UUID.randomUUID().toString())
            .setKind(ref.kind())
            .setNamespace(ref.namespace())
            .setName(ref.name())
            .setUid("uid-" + ref.name())
            .setAction(action)
            .setReason(action == Action.CREATE ? Reason.Missing : Reason.SpecChanged)
            .setGeneration(generation)
            .setAttempt(1)
            .setPatch(List.of())
            .setDesiredSpec(spec == null ? null : Values.fromJava(spec))
            .setIssuedAt(Instant.EPOCH)
            .setDeadline(Instant.EPOCH.plusSeconds(30))
            .build();
    }
}
