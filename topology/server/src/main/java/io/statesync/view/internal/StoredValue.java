package io.statesync.view.internal;

import java.nio.ByteBuffer;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.StoredResource;

/**
 * How a {@link StoredResource} holds its value: an array on the heap (read from the topic) or a range of a
 * memory-mapped view snapshot ({@link ViewSnapshot}, {@link ViewSpill}). Every StoredResource is one of the two nested
 * kinds here, so the view's own code may look at any of them through {@link #of}; what readers of the view need is on
 * {@link StoredResource} itself.
 */
public abstract class StoredValue extends StoredResource {

    private StoredValue(String key, long version, SyncStatus syncStatus, boolean labelled, Decoder decoder) {
        super(key, version, syncStatus, labelled, decoder);
    }

    /** A resource whose value is {@code bytes}, as read from the topic. */
    public static StoredValue onHeap(String key, byte[] bytes, ResourceSummary summary, Decoder decoder) {
        return new OnHeap(key, bytes, summary.version(), summary.syncStatus(), summary.labelled(), decoder);
    }

    /**
     * A resource whose value is {@code length} bytes at {@code at} in {@code region}, a read-only mapping of a snapshot
     * file that must not change while the view holds it (snapshots are replaced by a rename, never rewritten in place).
     */
    static StoredValue mapped(String key, MappedRegion region, int at, int length, ResourceSummary summary, Decoder decoder) {
        return new Mapped(key, region, at, length, summary.version(), summary.syncStatus(), summary.labelled(), decoder);
    }

    /** A deletion of a key this view never held: it reads as an object with only its name. */
    public static StoredValue absent(String key) {
        return new OnHeap(key, null, -1, null, false, null);
    }

    /** {@code r} as the view holds it; every StoredResource is a StoredValue. */
    public static StoredValue of(StoredResource r) {
        return (StoredValue) r;
    }

    @Override
    public abstract byte[] bytes();

    @Override
    public abstract int valueLength();

    /** The record's value as a buffer of its own position and limit, without a copy; null for {@link #absent}. */
    public abstract ByteBuffer value();

    /** Whether the value lives in a mapped snapshot rather than on the heap. */
    public boolean isMapped() {
        return region() != null;
    }

    /** The snapshot file a mapped value lies in, and where: so that a new snapshot copies it file to file; else null. */
    abstract MappedRegion region();

    /** The value's offset in {@link #region()}'s file; -1 when it is on the heap. */
    abstract long filePosition();

    /** The value as an array on the heap; a null array for {@link #absent}. */
    private static final class OnHeap extends StoredValue {

        /** The record value as read from statesync.resources, or null. */
        private final byte[] bytes;

        OnHeap(String key, byte[] bytes, long version, SyncStatus syncStatus, boolean labelled, Decoder decoder) {
            super(key, version, syncStatus, labelled, decoder);
            this.bytes = bytes;
        }

        @Override
        public byte[] bytes() {
            return bytes;
        }

        @Override
        public ByteBuffer value() {
            return bytes == null ? null : ByteBuffer.wrap(bytes);
        }

        @Override
        public int valueLength() {
            return bytes == null ? -1 : bytes.length;
        }

        @Override
        MappedRegion region() {
            return null;
        }

        @Override
        long filePosition() {
            return -1;
        }
    }

    /** The value as a range of a mapped snapshot region, read only with absolute gets (threads share the region). */
    private static final class Mapped extends StoredValue {

        private final MappedRegion region;
        private final int at;
        private final int length;

        Mapped(String key, MappedRegion region, int at, int length, long version, SyncStatus syncStatus, boolean labelled,
               Decoder decoder) {
            super(key, version, syncStatus, labelled, decoder);
            this.region = region;
            this.at = at;
            this.length = length;
        }

        @Override
        public byte[] bytes() {
            byte[] copy = new byte[length];
            region.buffer().get(at, copy);
            return copy;
        }

        @Override
        public ByteBuffer value() {
            return region.buffer().slice(at, length);
        }

        @Override
        public int valueLength() {
            return length;
        }

        @Override
        MappedRegion region() {
            return region;
        }

        @Override
        long filePosition() {
            return region.filePosition() + at;
        }
    }
}
