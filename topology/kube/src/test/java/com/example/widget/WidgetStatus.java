package com.example.widget;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.Condition;

/** What the operator reports of a widget: its ready replicas and a {@code Ready} condition. */
public class WidgetStatus {

    private Integer readyReplicas;
    private Long observedGeneration;
    private List<Condition> conditions = new ArrayList<>();

    public Integer getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(Integer readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }
}
