package io.statesync.rest.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.reconciler.ConditionView;
import io.statesync.reconciler.Diagnosis;

/** The JSON form of a {@link Diagnosis}. */
final class DiagnosisJson {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private DiagnosisJson() {
    }

    static ObjectNode toJson(Diagnosis d) {
        ObjectNode n = JSON.objectNode().put("apiVersion", ResourceJson.API_VERSION).put("kind", "Diagnosis");
        n.put("generationLag", d.generationLag());
        ArrayNode conditions = n.putArray("conditions");
        for (ConditionView c : d.staleOrFalseConditions()) {
            ObjectNode cn = conditions.addObject().put("type", c.type()).put("status", c.status())
                .put("reason", c.reason()).put("message", c.message());
            ResourceJson.putTime(cn, "lastTransitionTime", c.lastTransitionTime());
        }
        if (d.stuckCorrection().isPresent()) {
            Diagnosis.StuckCorrection s = d.stuckCorrection().get();
            ObjectNode sn = n.putObject("stuckCorrection").put("commandId", s.commandId())
                .put("action", s.action().name()).put("reason", s.reason().name()).put("attempt", s.attempt())
                .put("overdueBySeconds", s.overdueBy().toMillis() / 1000.0);
            ResourceJson.putTime(sn, "issuedAt", s.issuedAt());
            ResourceJson.putTime(sn, "deadline", s.deadline());
        } else {
            n.putNull("stuckCorrection");
        }
        ArrayNode hints = n.putArray("hints");
        d.hints().forEach(hints::add);
        return n;
    }
}
