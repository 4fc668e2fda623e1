package io.statesync.view;

import java.util.function.Function;

import io.statesync.avro.ObjectMeta;
import io.statesync.avro.Resource;
import io.statesync.avro.ResourceStatus;
import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceKey;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.internal.StoredValue;

/**
 * One resource as the REST view keeps it: the record's serialized bytes, decoded again on each read, plus the few
 * fields that point reads and list filters test without decoding (key, resourceVersion, syncStatus, whether it
 * has labels).
 *
 * <p>Why not the decoded {@link Resource}: decoded, a resource (its spec's generic values, dozens of strings and
 * several maps) costs an order of magnitude more heap than its encoded bytes, so the view keeps the bytes. Decoding
 * on each read is cheap beside the rest of a request, and the REST server caches the rendered JSON of hot objects.
 *
 * <p>The bytes are either an array on the heap (read from the topic) or a range of a memory-mapped view snapshot: the
 * one the view started from or the last one it wrote while running. Mapped values then cost the heap nothing, and a
 * start neither copies them onto the heap nor makes the collector move them. How the bytes are held is the
 * view's own business ({@link StoredValue}, its only subclass), so this class shows only what readers need.
 */
public abstract class StoredResource {

    /** Decoding keeps nothing: the same bytes decode to an equal, new object every time. */
    public interface Decoder extends Function<byte[], Resource> {
    }

    // Subclasses for the two kinds of value rather than fields for both: one of these is on the heap per resource, so
    // one whose value is an array does not carry the fields only a mapped value needs.
    private final String key;
    /** The resourceVersion as a number, or -1 when it is not one (then {@link #resourceVersion()} decodes). */
    private final long version;
    private final SyncStatus syncStatus;
    private final boolean labelled;
    private final Decoder decoder;

    /** For {@link StoredValue} alone, whose subclasses hold the value. */
    protected StoredResource(String key, long version, SyncStatus syncStatus, boolean labelled, Decoder decoder) {
        this.key = key;
        this.version = version;
        this.syncStatus = syncStatus;
        this.labelled = labelled;
        this.decoder = decoder;
    }

    /** {@code summary} is what the record's header says of {@code bytes}, or what decoding them once found. */
    public static StoredResource of(String key, byte[] bytes, ResourceSummary summary, Decoder decoder) {
        return StoredValue.onHeap(key, bytes, summary, decoder);
    }

    /** A deletion of a key this view never held: it reads as an object with only its name. */
    public static StoredResource absent(String key) {
        return StoredValue.absent(key);
    }

    /** The record's value: the array as read (not copied; callers must not change it), a copy when mapped; null when absent. */
    protected abstract byte[] bytes();

    /** The value's length in bytes; -1 for {@link #absent}. */
    protected abstract int valueLength();

    /**
     * What this resource costs as the view stores it: its key's characters and its value's bytes (as encoded on the
     * topic). The measure of the view's byte budgets: lists, the change ring.
     */
    public final long storedBytes() {
        return key.length() + Math.max(0, valueLength());
    }

    public final String key() {
        return key;
    }

    /** The resourceVersion as a number, or -1 when it is none. */
    public final long version() {
        return version;
    }

    /** The resourceVersion as the API shows it; null when the object has none. */
    public final String resourceVersion() {
        return version >= 0 ? Long.toString(version) : isAbsent() ? null : resource().getMetadata().getResourceVersion();
    }

    public final SyncStatus syncStatus() {
        return syncStatus;
    }

    public final boolean hasLabels() {
        return labelled;
    }

    /** Whether the key is of {@code kind}, without parsing it (a kind has no '/'). */
    public final boolean isKind(String kind) {
        return key.length() > kind.length() && key.startsWith(kind) && key.charAt(kind.length()) == '/';
    }

    /** Whether the key is in {@code namespace}: the segment between the first and the second '/'. */
    public final boolean isInNamespace(String namespace) {
        int start = key.indexOf('/') + 1;
        int end = key.indexOf('/', start);
        return end - start == namespace.length() && key.startsWith(namespace, start);
    }

    /** A new decoded object on every call; the caller may keep or change it. */
    public final Resource resource() {
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
}
