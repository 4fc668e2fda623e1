package io.statesync.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import picocli.CommandLine.Option;

/** The filters that list and watch share; they become the API's query parameters. */
final class FilterOptions {

    @Option(names = {"-k", "--kind"}, description = "Only this kind.")
    String kind;
    @Option(names = {"-n", "--namespace"}, description = "Only this namespace.")
    String namespace;
    @Option(names = {"-l", "--selector"}, description = "Label selector, e.g. 'tier=web,env in (prod),!canary'.")
    String selector;
    @Option(names = "--sync-status", description = "Only this syncStatus (Synced, OutOfSync, Progressing, Stalled, Deleting, Orphaned).")
    String syncStatus;
    @Option(names = "--health", description = "Only this health (Healthy, Progressing, Degraded, Suspended, Missing, Unknown).")
    String health;

    Map<String, String> query() {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("kind", kind);
        q.put("namespace", namespace);
        q.put("labelSelector", selector);
        q.put("syncStatus", syncStatus);
        q.put("health", health);
        return q;
    }
}
