package io.statesync.topology.internal;

import java.util.EnumMap;
import java.util.Map;

import io.statesync.reconciler.Action;
import io.statesync.reconciler.DiffKind;
import io.statesync.reconciler.Reason;
import io.statesync.reconciler.SyncStatus;

/**
 * The schema's enums and the reconciler's, which share their constants' names, mapped once per pair instead of
 * {@code valueOf(other.name())} on every reconcile (a lookup by name in a hash map each time, about 1% of the stream
 * threads in the latency suite). A constant without a counterpart fails the class's initialisation, so a schema
 * and a domain enum that drift apart fail the first test that touches either.
 */
final class EnumMappings {

    static final Map<io.statesync.avro.SyncStatus, SyncStatus> SYNC_STATUS = byName(io.statesync.avro.SyncStatus.class, SyncStatus.class);
    static final Map<SyncStatus, io.statesync.avro.SyncStatus> AVRO_SYNC_STATUS = byName(SyncStatus.class, io.statesync.avro.SyncStatus.class);
    static final Map<io.statesync.avro.DiffKind, DiffKind> DIFF_KIND = byName(io.statesync.avro.DiffKind.class, DiffKind.class);
    static final Map<DiffKind, io.statesync.avro.DiffKind> AVRO_DIFF_KIND = byName(DiffKind.class, io.statesync.avro.DiffKind.class);
    static final Map<io.statesync.avro.Action, Action> ACTION = byName(io.statesync.avro.Action.class, Action.class);
    static final Map<Action, io.statesync.avro.Action> AVRO_ACTION = byName(Action.class, io.statesync.avro.Action.class);
    static final Map<io.statesync.avro.Reason, Reason> REASON = byName(io.statesync.avro.Reason.class, Reason.class);
    static final Map<Reason, io.statesync.avro.Reason> AVRO_REASON = byName(Reason.class, io.statesync.avro.Reason.class);

    private EnumMappings() {
    }

    static <A extends Enum<A>, B extends Enum<B>> Map<A, B> byName(Class<A> from, Class<B> to) {
        Map<A, B> mapping = new EnumMap<>(from);
        for (A constant : from.getEnumConstants()) {
            mapping.put(constant, Enum.valueOf(to, constant.name()));
        }
        return mapping;
    }
}
