package com.example.widget;

import java.util.Map;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The widget's {@code WidgetConfig}, created and updated by the framework with server-side apply, owned by the
 * widget (so that it is garbage collected with it).
 */
public class WidgetConfigDependent extends CRUDKubernetesDependentResource<WidgetConfig, Widget> {

    public WidgetConfigDependent() {
        super(WidgetConfig.class);
    }

    @Override
    protected WidgetConfig desired(Widget widget, Context<Widget> context) {
        WidgetConfig config = new WidgetConfig();
        config.setMetadata(new ObjectMetaBuilder().withName(configName(widget))
            .withNamespace(widget.getMetadata().getNamespace()).build());
        WidgetConfigSpec spec = new WidgetConfigSpec();
        spec.setData(Map.of("message", String.valueOf(widget.getSpec().getMessage()),
            "replicas", Integer.toString(widget.getSpec().getReplicas())));
        config.setSpec(spec);
        return config;
    }

    static String configName(Widget widget) {
        return widget.getMetadata().getName() + "-config";
    }
}
