package io.statesync.topology;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.Condition;
import io.statesync.avro.EventType;
import io.statesync.avro.PatchType;
import io.statesync.avro.Value;
import io.statesync.reconciler.ConditionView;
import io.statesync.schemas.Values;
import io.statesync.topology.internal.JsonPatches;
import io.statesync.topology.internal.StrategicMergePatch;

/**
 * The status subresource's rules, which both APIs share: the names in {@code status} statesync owns, how a write
 * (a PUT's body, a merge or JSON patch, an applied configuration) makes the new status from the one its client sees,
 * and how that status becomes the report admission observes: the reported fields, the reported conditions and the
 * observedGeneration. Fields and conditions statesync owns are never taken from a write.
 */
public final class StatusSubresource {

    /** The fields of {@code status} statesync computes; a reported field of one of these names is not shown. */
    public static final Set<String> OWNED_FIELDS = Set.of("observedGeneration", "syncStatus", "conditions", "diff",
        "attempts", "lastCorrection", "convergedAt", "lastObservedAt", "health");
    /** The condition types statesync sets; a reported condition of one of these types is dropped. */
    public static final Set<String> OWNED_CONDITION_TYPES = Set.of(ConditionView.SYNCED, ConditionView.PROGRESSING,
        ConditionView.STALLED, ConditionView.OBSERVED_STALE, ConditionView.HEALTHY, ConditionView.MERGE_CONFLICT);
    /** The admission reason of a written status over {@code spec.max.bytes}, answered 413. */
    public static final String STATUS_TOO_LARGE = "StatusTooLarge";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private StatusSubresource() {
    }

    /**
     * What a status write reports: the status without statesync's fields, the conditions of other types, the
     * observedGeneration it states (0 when none), and a warning for each field or condition of statesync's that the
     * write changed and that was dropped.
     */
    public record Report(Value status, List<Condition> conditions, long observedGeneration, List<String> warnings) {
    }

    /** A report, or the refusal of the write (its reason one of {@link WriteAdmission}'s or {@link #STATUS_TOO_LARGE}). */
    public record Outcome(Report report, WriteAdmission.Refused refused) {
    }

    /**
     * The report of a write to the status subresource of {@code object}, the object as its client sees it: a PUT's
     * ({@code type} null) body's status replaces it; a merge, JSON or strategic merge patch applies to the object and
     * its status is taken; an applied configuration's status is merged into the status as a merge patch. Whatever
     * else the result holds (a spec, metadata) is ignored, as Kubernetes' status strategy ignores it.
     *
     * @param previous the conditions reported before, whose transition times a condition without one keeps
     */
    public static Outcome report(ObjectNode object, PatchType type, JsonNode body, List<Condition> previous,
                                 Instant now, WriteAdmission.Limits limits) {
        JsonNode status;
        try {
            status = written(object, type, body, limits);
        } catch (JsonPatches.TooLarge e) {
            return refused(WriteAdmission.PATCH_TOO_LARGE, e.getMessage());
        } catch (JsonPatches.PatchException e) {
            return refused(e.malformed() ? WriteAdmission.INVALID : WriteAdmission.PATCH_NOT_APPLICABLE, e.getMessage());
        }
        if (status.isMissingNode() || status.isNull()) {
            status = JSON.objectNode();
        }
        if (!status.isObject()) {
            return refused(WriteAdmission.INVALID, "status must be a JSON object");
        }
        long[] measured = JsonPatches.measure(status, limits.maxBytes(), limits.maxDepth());
        if (measured[0] > limits.maxBytes()) {
            return refused(STATUS_TOO_LARGE, "the status is larger than spec.max.bytes (" + limits.maxBytes() + " bytes)");
        }
        if (measured[1] > limits.maxDepth()) {
            return refused(WriteAdmission.INVALID, "the status is nested deeper than spec.max.depth (" + limits.maxDepth()
                + " levels)");
        }
        try {
            return new Outcome(split((ObjectNode) status, object.path("status"), previous, now), null);
        } catch (IllegalArgumentException e) {
            return refused(WriteAdmission.INVALID, e.getMessage());
        }
    }

    private static Outcome refused(String reason, String message) {
        return new Outcome(null, new WriteAdmission.Refused(EventType.Invalid, reason, message));
    }

    private static JsonNode written(ObjectNode object, PatchType type, JsonNode body, WriteAdmission.Limits limits) {
        if (type == null) {
            return body.path("status");
        }
        JsonNode after = switch (type) {
            case JsonPatch -> JsonPatches.jsonPatch(object.deepCopy(), body, limits.whileApplying());
            case StrategicMergePatch -> StrategicMergePatch.apply(object.deepCopy(), requireObject(body));
            case Apply -> JsonPatches.mergePatch(object.deepCopy(),
                JSON.objectNode().set("status", requireObject(body).path("status").deepCopy()));
            default -> JsonPatches.mergePatch(object.deepCopy(), requireObject(body));
        };
        return after.path("status");
    }

    private static JsonNode requireObject(JsonNode body) {
        if (!body.isObject()) {
            throw new JsonPatches.PatchException(true, "the patch must be a JSON object");
        }
        return body;
    }

    private static Report split(ObjectNode status, JsonNode shown, List<Condition> previous, Instant now) {
        ObjectNode reported = JSON.objectNode();
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : status.properties()) {
            String name = e.getKey();
            if (!OWNED_FIELDS.contains(name)) {
                reported.set(name, e.getValue());
            } else if (!"conditions".equals(name) && !"observedGeneration".equals(name)
                && !e.getValue().equals(shown.get(name))) {
                warnings.add("status." + name + " is statesync's own field: the written value was dropped");
            }
        }
        JsonNode generation = status.path("observedGeneration");
        if (!generation.isMissingNode() && !generation.isNull() && !generation.canConvertToExactIntegral()) {
            throw new IllegalArgumentException("status.observedGeneration must be an integer");
        }
        return new Report(Values.fromJson(reported), conditions(status.path("conditions"), shown.path("conditions"),
            previous, now, warnings), generation.asLong(0), List.copyOf(warnings));
    }

    private static List<Condition> conditions(JsonNode written, JsonNode shown, List<Condition> previous, Instant now,
                                              List<String> warnings) {
        if (written.isMissingNode() || written.isNull()) {
            return List.of();
        }
        if (!written.isArray()) {
            throw new IllegalArgumentException("status.conditions must be a list");
        }
        List<Condition> out = new ArrayList<>(written.size());
        for (JsonNode c : written) {
            if (!c.path("type").isTextual() || !c.path("status").isTextual()) {
                throw new IllegalArgumentException("each of status.conditions needs a type and a status");
            }
            String type = c.get("type").asText();
            if (OWNED_CONDITION_TYPES.contains(type)) {
                if (!sameCondition(c, shownOfType(shown, type))) {
                    warnings.add("the condition " + type + " is statesync's own: the written one was dropped");
                }
                continue;
            }
            out.add(condition(c, type, previous, now));
        }
        return out;
    }

    private static Condition condition(JsonNode c, String type, List<Condition> previous, Instant now) {
        String status = c.get("status").asText();
        Instant since = transitionTime(c.path("lastTransitionTime"));
        if (since == null) {
            since = now;
            for (Condition p : previous) {
                if (p.getType().equals(type) && p.getStatus().equals(status)) {
                    since = p.getLastTransitionTime();
                }
            }
        }
        JsonNode generation = c.path("observedGeneration");
        return new Condition(type, status, c.path("reason").asText(""), c.path("message").asText(""), since,
            generation.canConvertToExactIntegral() ? generation.asLong() : null);
    }

    private static Instant transitionTime(JsonNode t) {
        if (!t.isTextual() || t.asText().isEmpty()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(t.asText()).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("lastTransitionTime must be an RFC 3339 time: " + t.asText());
        }
    }

    private static JsonNode shownOfType(JsonNode shown, String type) {
        for (JsonNode c : shown) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return null;
    }

    /** The same condition as shown, by what a client sets: type, status, reason and message. */
    private static boolean sameCondition(JsonNode a, JsonNode b) {
        return b != null && a.path("status").equals(b.path("status"))
            && a.path("reason").asText("").equals(b.path("reason").asText(""))
            && a.path("message").asText("").equals(b.path("message").asText(""));
    }
}
