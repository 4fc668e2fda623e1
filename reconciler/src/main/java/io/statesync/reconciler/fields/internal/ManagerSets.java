package io.statesync.reconciler.fields.internal;

import io.statesync.reconciler.fields.FieldSet;
import io.statesync.reconciler.fields.ManagedFieldsEntry;
import io.statesync.reconciler.fields.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The managers of one object while an operation runs, keyed as the apiserver keys them: by the JSON of manager,
 * operation and (for an Update) API version. Iteration is in the order of those identifiers, which is the order
 * the apiserver sorts managers by when it prints conflicts and caps updates.
 */
public final class ManagerSets {
    private final TreeMap<String, ManagedFieldsEntry> byId = new TreeMap<>(GoText::compareStrings);

    /** Later entries with the same identity replace earlier ones, as the apiserver decodes them. */
    public static ManagerSets of(List<ManagedFieldsEntry> entries) {
        ManagerSets sets = new ManagerSets();
        for (ManagedFieldsEntry e : entries) {
            sets.put(e);
        }
        return sets;
    }

    /** The apiserver's manager identifier: {@code {"manager":"m","operation":"Update","apiVersion":"v1"}}. */
    public static String identifier(String manager, Operation operation, String apiVersion) {
        StringBuilder out = new StringBuilder("{");
        if (!manager.isEmpty()) {
            out.append("\"manager\":");
            GoText.jsonString(manager, out);
            out.append(',');
        }
        out.append("\"operation\":\"").append(operation.name()).append('"');
        if (operation == Operation.Update && !apiVersion.isEmpty()) {
            out.append(",\"apiVersion\":");
            GoText.jsonString(apiVersion, out);
        }
        return out.append('}').toString();
    }

    public static String identifier(ManagedFieldsEntry e) {
        return identifier(e.manager(), e.operation(), e.apiVersion());
    }

    public void put(ManagedFieldsEntry e) {
        byId.put(identifier(e), e);
    }

    public ManagedFieldsEntry get(String id) {
        return byId.get(id);
    }

    public ManagedFieldsEntry remove(String id) {
        return byId.remove(id);
    }

    public boolean isEmpty() {
        return byId.isEmpty();
    }

    /** Live view, in identifier order. */
    public Map<String, ManagedFieldsEntry> entries() {
        return byId;
    }

    /** Replaces the fields of the manager {@code id}, keeping the rest of its entry. */
    public void setFields(String id, FieldSet fields) {
        ManagedFieldsEntry e = byId.get(id);
        byId.put(id, new ManagedFieldsEntry(e.manager(), e.operation(), e.apiVersion(), e.time(), fields));
    }

    public void setTime(String id, Instant time) {
        ManagedFieldsEntry e = byId.get(id);
        if (e != null) {
            byId.put(id, new ManagedFieldsEntry(e.manager(), e.operation(), e.apiVersion(), time, e.fields()));
        }
    }

    /** Drops every manager left with no field, as the apiserver does after each operation. */
    public void dropEmpty() {
        byId.values().removeIf(e -> e.fields().isEmpty());
    }

    /** Everything any manager owns. */
    public FieldSet union() {
        FieldSet all = FieldSet.empty();
        for (ManagedFieldsEntry e : byId.values()) {
            all = all.union(e.fields());
        }
        return all;
    }

    public List<ManagedFieldsEntry> list() {
        return new ArrayList<>(byId.values());
    }
}
