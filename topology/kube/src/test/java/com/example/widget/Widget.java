package com.example.widget;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The primary resource: {@code widgets.example.com}, whose status this operator writes. */
@Group("example.com")
@Version("v1")
public class Widget extends CustomResource<WidgetSpec, WidgetStatus> implements Namespaced {
}
