package io.statesync.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

import io.statesync.avro.EventType;
import io.statesync.avro.ReconcileEvent;
import io.statesync.avro.Resource;
import io.statesync.schemas.Values;

/**
 * What the CAS writers sent and what statesync answered, and the check that the answers form a linearizable
 * history: on every key, each accepted conditional write was applied to exactly the version it expected.
 *
 * <p>resourceVersion also changes when only the status changes (docs/architecture.md), so "the previous accepted
 * version" is read as the version just before the write's own in the key's Resource history on statesync.resources.
 */
final class CasHistory {

    /** One conditional write; {@code expected} is null for the unconditional seed writes. */
    record Sent(int writer, String key, String expected, Object spec) {
    }

    final Map<String, Sent> sent = new ConcurrentHashMap<>();
    final Map<String, ReconcileEvent> answers = new ConcurrentHashMap<>();
    /** key -> resourceVersion -> spec, from statesync.resources. */
    final Map<String, NavigableMap<Long, Object>> resources = new ConcurrentHashMap<>();

    void onEvent(ReconcileEvent e) {
        if (e != null && e.getRequestId() != null && sent.containsKey(e.getRequestId())
            && (e.getType() == EventType.Accepted || e.getType() == EventType.Conflict || e.getType() == EventType.Invalid)) {
            answers.putIfAbsent(e.getRequestId(), e);
        }
    }

    void onResource(String key, Resource r) {
        if (r != null) {
            resources.computeIfAbsent(key, k -> new ConcurrentSkipListMap<>())
                .put(Long.parseLong(r.getMetadata().getResourceVersion()), Values.toJava(r.getSpec()));
        }
    }

    int count(EventType type) {
        return (int) answers.values().stream().filter(e -> e.getType() == type).count();
    }

    /** Whether every accepted write's version has reached the resources tail. */
    boolean resourcesCaughtUp() {
        return answers.values().stream().filter(e -> e.getType() == EventType.Accepted).allMatch(e -> {
            NavigableMap<Long, Object> h = resources.get(keyOf(e));
            return h != null && h.containsKey(Long.parseLong(e.getResourceVersion()));
        });
    }

    /** Every violation found, empty when the history is linearizable. */
    List<String> violations() {
        List<String> problems = new ArrayList<>();
        Map<String, Map<Long, String>> winners = new HashMap<>();
        Map<String, Map<String, String>> expectedWinners = new HashMap<>();
        answers.forEach((id, e) -> {
            Sent s = sent.get(id);
            if (e.getType() == EventType.Conflict && Objects.equals(s.expected(), e.getResourceVersion())) {
                problems.add(id + ": Conflict although the current version " + e.getResourceVersion() + " was the expected one");
            }
            if (e.getType() != EventType.Accepted) {
                return;
            }
            long version = Long.parseLong(e.getResourceVersion());
            String other = winners.computeIfAbsent(s.key(), k -> new HashMap<>()).putIfAbsent(version, id);
            if (other != null) {
                problems.add(s.key() + ": " + id + " and " + other + " were both accepted as version " + version);
            }
            if (s.expected() != null) {
                checkPredecessor(id, s, version, problems);
                String rival = expectedWinners.computeIfAbsent(s.key(), k -> new HashMap<>()).putIfAbsent(s.expected(), id);
                if (rival != null) {
                    problems.add(s.key() + ": " + id + " and " + rival + " both won over version " + s.expected());
                }
            }
        });
        winners.forEach((key, byVersion) -> checkFinalSpec(key, byVersion, problems));
        return problems;
    }

    private void checkPredecessor(String id, Sent s, long version, List<String> problems) {
        NavigableMap<Long, Object> history = resources.getOrDefault(s.key(), new ConcurrentSkipListMap<>());
        Long before = history.lowerKey(version);
        if (before == null || !before.toString().equals(s.expected())) {
            problems.add(s.key() + ": " + id + " expected " + s.expected() + " but was applied on top of " + before);
        }
    }

    /** The last Resource's spec must be the spec of the last accepted write: no accepted write was overwritten unseen. */
    private void checkFinalSpec(String key, Map<Long, String> byVersion, List<String> problems) {
        NavigableMap<Long, Object> history = resources.get(key);
        long lastWrite = byVersion.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        Object expectedSpec = sent.get(byVersion.get(lastWrite)).spec();
        if (history == null || !expectedSpec.equals(history.lastEntry().getValue())) {
            problems.add(key + ": final spec " + (history == null ? null : history.lastEntry().getValue())
                + " is not the last accepted write's " + expectedSpec);
        }
    }

    private static String keyOf(ReconcileEvent e) {
        return e.getKind() + "/" + e.getNamespace() + "/" + e.getName();
    }
}
