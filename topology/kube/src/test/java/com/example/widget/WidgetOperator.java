package com.example.widget;

import java.util.function.Consumer;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;

/** Runs the widget operator against the cluster of the current kubeconfig context, in every namespace. */
public final class WidgetOperator {

    private WidgetOperator() {
    }

    /**
     * An operator on {@code client}, with the widget reconciler registered, not yet started; {@code settings} may
     * change the framework's other settings.
     */
    public static Operator create(KubernetesClient client, WidgetReconciler reconciler,
                                  Consumer<ConfigurationServiceOverrider> settings) {
        Operator operator = new Operator(o -> settings.accept(o.withKubernetesClient(client)));
        operator.register(reconciler);
        return operator;
    }

    public static void main(String[] args) {
        KubernetesClient client = new KubernetesClientBuilder().build();
        Operator operator = create(client, new WidgetReconciler(), o -> { });
        operator.installShutdownHook(java.time.Duration.ofSeconds(10));
        operator.start();
    }
}
