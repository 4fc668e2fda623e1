package io.statesync.topology;

import java.util.List;

/** The topics of docs/contract.md, section 2, under one configurable prefix. */
public record TopicNames(String prefix) {

    public String desired() { return prefix + "desired"; }
    public String observed() { return prefix + "observed"; }
    public String corrections() { return prefix + "corrections"; }
    public String resources() { return prefix + "resources"; }
    public String events() { return prefix + "events"; }
    public String kinds() { return prefix + "kinds"; }
    public String dlq() { return prefix + "dlq"; }

    public List<String> compacted() {
        return List.of(desired(), observed(), resources(), kinds());
    }

    public List<String> deleting() {
        return List.of(corrections(), events(), dlq());
    }

    public List<String> all() {
        return List.of(desired(), observed(), corrections(), resources(), events(), kinds(), dlq());
    }
}
