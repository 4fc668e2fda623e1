package io.statesync.reconciler.fields;

/**
 * How a list merges and is owned. {@code ATOMIC}: as one value, replaced whole and owned whole. {@code SET}: items are
 * distinct scalars, each owned alone ({@code v:}). {@code MAP}: items are maps named by their key fields, merged item
 * by item and owned per item and field ({@code k:}).
 */
public enum ListType {
    ATOMIC, SET, MAP
}
