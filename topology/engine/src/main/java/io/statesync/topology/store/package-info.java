/**
 * The public face of statesync's state store, for topologies outside the engine that keep their state the way the
 * engine does; the implementation is in {@code io.statesync.topology.internal}.
 */
package io.statesync.topology.store;
