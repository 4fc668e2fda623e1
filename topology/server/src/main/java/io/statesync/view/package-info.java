/**
 * The resource view: each instance's own read_committed read of statesync.resources, the latest Resource per key
 * plus a ring of recent changes, each with the exact position (per-partition offsets) it reflects. The REST server
 * serves lists, watches and fresh point reads from it; {@code docs/architecture.md} ("The REST view") says why.
 *
 * <p>What is public here, and why:
 * <ul>
 *   <li>{@link io.statesync.view.ResourceView}, the view itself and its value types (a page of a list, a change, a
 *       batch of changes): the REST server reaches the view through it alone.</li>
 *   <li>{@link io.statesync.view.StoredResource}, what the view holds per key and hands out: a record's bytes, decoded
 *       on each read, plus the fields that filters test without decoding.</li>
 *   <li>{@link io.statesync.view.SortedRun}, {@link io.statesync.view.LoadSorter} and
 *       {@link io.statesync.view.KeyOrder}, the building blocks of the view's one-time sorted build at start, so that
 *       {@code ops/bench} ({@code ViewBuildBenchmark}) measures the very code the view runs. They need nothing but
 *       {@code StoredResource}.</li>
 * </ul>
 *
 * <p>Everything else is {@code io.statesync.view.internal}, for this package alone: the topic reader, the index, the
 * change ring, the snapshot file and the spill, and how a StoredResource holds its value (on the heap or mapped from
 * the snapshot). The view depends on the engine's public classes and the Kafka clients, never on
 * {@code io.statesync.rest} or {@code io.statesync.app}, which build on it.
 */
package io.statesync.view;
