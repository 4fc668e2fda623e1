package com.example.widget;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * Reconciles widgets: the framework adds the finalizer (this is a {@link Cleaner}) and applies the widget's
 * {@link WidgetConfig}; the reconciler then reports the widget's status, and cleans up when the widget is deleted.
 */
@Workflow(dependents = @Dependent(type = WidgetConfigDependent.class))
@ControllerConfiguration(name = WidgetReconciler.NAME)
public class WidgetReconciler implements Reconciler<Widget>, Cleaner<Widget> {

    public static final String NAME = "widget-operator";

    private final Set<String> cleanedUp = ConcurrentHashMap.newKeySet();

    @Override
    public UpdateControl<Widget> reconcile(Widget widget, Context<Widget> context) {
        int wanted = widget.getSpec().getReplicas();
        int ready = context.getSecondaryResource(WidgetConfig.class).isPresent() ? wanted : 0;
        // A fresh object with only the identity and the status: the status patch is server-side apply, and this
        // operator's field manager owns exactly what it sends.
        Widget patch = new Widget();
        patch.setMetadata(new ObjectMetaBuilder().withName(widget.getMetadata().getName())
            .withNamespace(widget.getMetadata().getNamespace()).build());
        WidgetStatus status = new WidgetStatus();
        status.setReadyReplicas(ready);
        status.setObservedGeneration(widget.getMetadata().getGeneration());
        status.setConditions(List.of(ready(widget, ready >= wanted)));
        patch.setStatus(status);
        return UpdateControl.patchStatus(patch);
    }

    private static Condition ready(Widget widget, boolean ready) {
        return new ConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False")
            .withReason(ready ? "ReplicasReady" : "ReplicasStarting")
            .withMessage(ready ? "every replica is ready" : "waiting for the widget's configuration")
            .withObservedGeneration(widget.getMetadata().getGeneration())
            .withLastTransitionTime(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()).build();
    }

    @Override
    public DeleteControl cleanup(Widget widget, Context<Widget> context) {
        cleanedUp.add(widget.getMetadata().getNamespace() + "/" + widget.getMetadata().getName());
        return DeleteControl.defaultDelete();
    }

    /** The widgets this operator cleaned up, as namespace/name. */
    public Set<String> cleanedUp() {
        return Set.copyOf(cleanedUp);
    }
}
