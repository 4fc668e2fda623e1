package com.example.widget;

import java.util.LinkedHashMap;
import java.util.Map;

/** A widget's configuration as its dependent holds it. */
public class WidgetConfigSpec {

    private Map<String, String> data = new LinkedHashMap<>();

    public Map<String, String> getData() {
        return data;
    }

    public void setData(Map<String, String> data) {
        this.data = data;
    }
}
