/**
 * The parts of {@link io.statesync.view.ResourceView}, named by role: {@link io.statesync.view.internal.TopicReader}
 * (the consumer that tails statesync.resources), {@link io.statesync.view.internal.ResourceIndex} (the latest resource
 * per key, by hash and in key order), {@link io.statesync.view.internal.ChangeRing} (recent changes for watches, and
 * the position) and {@link io.statesync.view.internal.SnapshotKeeper} (the snapshot file over an instance's life, with
 * {@link io.statesync.view.internal.ViewSnapshot}, {@link io.statesync.view.internal.ViewSnapshotStore},
 * {@link io.statesync.view.internal.ViewSnapshotPolicy} and {@link io.statesync.view.internal.ViewSpill});
 * {@link io.statesync.view.internal.StoredValue} is how a resource holds its value;
 * {@link io.statesync.view.internal.EventStore} holds the event history's entries within its byte budget. Not for use outside
 * {@code io.statesync.view}.
 */
package io.statesync.view.internal;
