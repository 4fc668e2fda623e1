package com.example.widget;

/** What a widget asks for. */
public class WidgetSpec {

    private int replicas;
    private String message;

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }
}
