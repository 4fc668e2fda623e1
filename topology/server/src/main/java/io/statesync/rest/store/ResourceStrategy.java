package io.statesync.rest.store;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.avro.DesiredState;
import io.statesync.avro.Resource;
import io.statesync.config.AppConfig;
import io.statesync.reconciler.Differ;
import io.statesync.reconciler.FieldDiff;
import io.statesync.reconciler.ReconcilePolicy;
import io.statesync.rest.internal.ResourceJson;
import io.statesync.schemas.Values;
import io.statesync.topology.OutputLimits;
import io.statesync.topology.WriteAdmission;

/**
 * What is special about one kind's writes, from its policy, as the apiserver's per-resource strategy: the store calls
 * its steps in a fixed order, {@link #validate}, {@link #checkOutputs}, {@link #prepare}, {@link #canonicalize}.
 *
 * <p>The rules that need the stored object (the precondition, create-only, the server-side patch, what counts as a
 * spec change under the kind's {@code strictTyping}, the kind's validation rules with {@code oldSelf}, the
 * owner-reference rules, the deleting object's frozen spec) are {@link WriteAdmission#decide}: the owning task runs it
 * per key for a real write, and {@link #validate} runs the same for a dry run, so that the two cannot differ.
 */
public final class ResourceStrategy {

    private final ReconcilePolicy policy;
    private final WriteAdmission.Limits limits;
    private final AppConfig config;

    private ResourceStrategy(ReconcilePolicy policy, AppConfig config) {
        this.policy = policy;
        this.config = config;
        this.limits = WriteAdmission.Limits.of(config);
    }

    /** The strategy of a kind whose policy (the defaults when it has none) is {@code policy}. */
    public static ResourceStrategy of(ReconcilePolicy policy, AppConfig config) {
        return new ResourceStrategy(policy, config);
    }

    /** The kind's policy the strategy applies. */
    public ReconcilePolicy policy() {
        return policy;
    }

    /** Step 1: the admission rules, the kind's validation and spec-change rules among them, against {@code current}. */
    public WriteAdmission.Decision validate(Resource current, DesiredState request) {
        return WriteAdmission.decide(current, request, policy, limits);
    }

    /** Step 2: whether the accepted write's outputs would pass the largest record the topics take; null when not. */
    public WriteAdmission.Refused checkOutputs(WriteAdmission.Accepted accepted) {
        return OutputLimits.refusal(config, accepted.effective(), null);
    }

    /** Step 3: the object as admission stores it, before it assigns the next resourceVersion. */
    public Resource prepare(Resource current, WriteAdmission.Accepted accepted, long now) {
        return WriteAdmission.admitted(current, accepted, now);
    }

    /**
     * Step 4: the stored object as the API shows it, with a summary of the outcome and of every field of the spec the
     * write changes, whatever the kind's policy ignores when it reconciles (a dry run reports the write, not a plan).
     */
    public ObjectNode canonicalize(Resource after, Resource current, WriteAdmission.Accepted accepted) {
        ObjectNode out = ResourceJson.toJson(after);
        ObjectNode summary = out.putObject("dryRun").put("outcome", accepted.outcome().getClass().getSimpleName())
            .put("generation", accepted.outcome().generation());
        List<FieldDiff> changes = Differ.diff(Values.toJava(after.getSpec()),
            current == null ? null : Values.toJava(current.getSpec()), ReconcilePolicy.defaults());
        ArrayNode specChanges = summary.putArray("specChanges");
        for (FieldDiff c : changes) {
            ObjectNode n = specChanges.addObject().put("path", c.path().format()).put("kind", c.kind().name());
            n.set("new", Values.toJson(Values.fromJava(c.desired())));
            n.set("old", Values.toJson(Values.fromJava(c.observed())));
        }
        return out;
    }
}
