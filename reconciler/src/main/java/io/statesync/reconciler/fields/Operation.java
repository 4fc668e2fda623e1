package io.statesync.reconciler.fields;

/** How a manager wrote its fields: by server-side apply, or by any other write. */
public enum Operation {
    Apply, Update
}
