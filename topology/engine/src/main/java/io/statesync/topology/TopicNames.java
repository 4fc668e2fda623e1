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
    /** Internal: the dependents index, keyed {@code ownerKey|dependentKey} and partitioned by the owner key. */
    public String dependents() { return prefix + "dependents"; }
    /** Internal: the garbage collector's commands, keyed by the dependent's key. */
    public String collect() { return prefix + "collect"; }

    public List<String> compacted() {
        return List.of(desired(), observed(), resources(), kinds(), dependents());
    }

    public List<String> deleting() {
        return List.of(corrections(), events(), dlq(), collect());
    }

    public List<String> all() {
        return List.of(desired(), observed(), corrections(), resources(), events(), kinds(), dlq(), dependents(), collect());
    }
}
