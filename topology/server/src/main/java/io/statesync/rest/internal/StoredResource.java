package io.statesync.rest.internal;

import java.nio.ByteBuffer;
import java.util.function.Function;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.ResourceSummary;

/**
 * One resource as the REST view keeps it: the record's serialized bytes, decoded again on each read, plus the few
 * fields that point reads and list filters test without decoding (key, resourceVersion, syncStatus, whether it
 * has labels).
 *
 * <p>Why not the decoded {@link Resource}: decoded, a resource costs about 5.3 KB of heap (its spec's generic values,
 * some 55 strings and 8 maps) against about 0.4 KB on the wire, so a view of 1M resources held 5.4 GB. A read
 * decodes in microseconds, and the rendered JSON of hot objects is cached ({@link RenderedJsonCache}).
 *
 * <p>The bytes are either an array on the heap (read from the topic) or a range of a memory-mapped view snapshot: the
 * one the view started from ({@link ViewSnapshot}) or the last one it wrote while running ({@link ViewSpill}). A
 * million resources then cost the heap nothing for their values, and a start neither copies 0.5 GB nor makes the
 * collector move it.
 */
public abstract class StoredResource {

    /** Decoding keeps nothing: the same bytes decode to an equal, new object every time. */
    public interface Decoder extends Function<byte[], Resource> {
    }

    // Two nested subclasses (the private constructor admits no others) rather than fields for both kinds of value: a
    // million of these are on the heap, and one whose value is an array stays at 40 bytes.
    private final String key;
    /** The resourceVersion as a number, or -1 when it is not one (then {@link #resourceVersion()} decodes). */
    private final long version;
    private final SyncStatus syncStatus;
    private final boolean labelled;
    private final Decoder decoder;

    private StoredResource(String key, long version, SyncStatus syncStatus, boolean labelled, Decoder decoder) {
        this.key = key;
        this.version = version;
        this.syncStatus = syncStatus;
        this.labelled = labelled;
        this.decoder = decoder;
    }

    /** {@code summary} is what the record's header says of {@code bytes}, or what decoding them once found. */
    public static StoredResource of(String key, byte[] bytes, ResourceSummary summary, Decoder decoder) {
        return new OnHeap(key, bytes, summary.version(), summary.syncStatus(), summary.labelled(), decoder);
    }

    /**
     * A resource whose value is {@code length} bytes at {@code at} in {@code region}, a read-only mapping of a snapshot
     * file that must not change while the view holds it (snapshots are replaced by a rename, never rewritten in place).
     */
    static StoredResource mapped(String key, MappedRegion region, int at, int length, ResourceSummary summary, Decoder decoder) {
        return new Mapped(key, region, at, length, summary.version(), summary.syncStatus(), summary.labelled(), decoder);
    }

    /** A deletion of a key this view never held: it reads as an object with only its name. */
    public static StoredResource absent(String key) {
        return new OnHeap(key, null, -1, null, false, null);
    }

    public String key() {
        return key;
    }

    /** The record's value: the array as read (not copied; callers must not change it), a copy when mapped; null for {@link #absent}. */
    abstract byte[] bytes();

    /** The record's value as a buffer of its own position and limit, without a copy; null for {@link #absent}. */
    abstract ByteBuffer value();

    /** The value's length in bytes; -1 for {@link #absent}. */
    abstract int valueLength();

    /** Whether the value lives in a mapped snapshot rather than on the heap. */
    boolean isMapped() {
        return region() != null;
    }

    /** The snapshot file a mapped value lies in, and where: so that a new snapshot copies it file to file; else null. */
    abstract MappedRegion region();

    /** The value's offset in {@link #region()}'s file; -1 when it is on the heap. */
    abstract long filePosition();

    /** The resourceVersion as a number, or -1 when it is none. */
    public long version() {
        return version;
    }

    /** The resourceVersion as the API shows it; null when the object has none. */
    public String resourceVersion() {
        return version >= 0 ? Long.toString(version) : isAbsent() ? null : resource().getMetadata().getResourceVersion();
    }

    public SyncStatus syncStatus() {
        return syncStatus;
    }

    public boolean hasLabels() {
        return labelled;
    }

    /** Whether the key is of {@code kind}, without parsing it (a kind has no '/'). */
    public boolean isKind(String kind) {
        return key.length() > kind.length() && key.startsWith(kind) && key.charAt(kind.length()) == '/';
    }

    /** Whether the key is in {@code namespace}: the segment between the first and the second '/'. */
    public boolean isInNamespace(String namespace) {
        int start = key.indexOf('/') + 1;
        int end = key.indexOf('/', start);
        return end - start == namespace.length() && key.startsWith(namespace, start);
    }

    /** A new decoded object on every call; the caller may keep or change it. */
    public Resource resource() {
        if (isAbsent()) {
            ResourceKey k = ResourceKey.parse(key);
            return Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind(k.kind())
                .setNamespace(k.namespace()).setName(k.name()).build()).setStatus(ResourceStatus.newBuilder().build()).build();
        }
        return decoder.apply(bytes());
    }

    private boolean isAbsent() {
        return valueLength() < 0;
    }

    /** The value as an array on the heap; a null array for {@link #absent}. */
    private static final class OnHeap extends StoredResource {
        /** The record value as read from statesync.resources, or null. */
        private final byte[] bytes;

        OnHeap(String key, byte[] bytes, long version, SyncStatus syncStatus, boolean labelled, Decoder decoder) {
            super(key, version, syncStatus, labelled, decoder);
            this.bytes = bytes;
        }

        @Override
        byte[] bytes() {
            return bytes;
        }

        @Override
        ByteBuffer value() {
            return bytes == null ? null : ByteBuffer.wrap(bytes);
        }

        @Override
        int valueLength() {
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
    private static final class Mapped extends StoredResource {
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
        byte[] bytes() {
            byte[] copy = new byte[length];
            region.buffer().get(at, copy);
            return copy;
        }

        @Override
        ByteBuffer value() {
            return region.buffer().slice(at, length);
        }

        @Override
        int valueLength() {
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
