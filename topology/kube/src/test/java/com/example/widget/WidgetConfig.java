package com.example.widget;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The dependent resource: {@code widgetconfigs.example.com}, a ConfigMap-like object the operator owns. */
@Group("example.com")
@Version("v1")
public class WidgetConfig extends CustomResource<WidgetConfigSpec, Void> implements Namespaced {
}
