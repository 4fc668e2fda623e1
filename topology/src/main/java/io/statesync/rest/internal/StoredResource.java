package io.statesync.rest.internal;

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
 */
public final class StoredResource {

    /** Decoding keeps nothing: the same bytes decode to an equal, new object every time. */
    public interface Decoder extends Function<byte[], Resource> {
    }

    private final String key;
    /** The record value as read from statesync.resources; null for the deletion of a key the view never held. */
    private final byte[] bytes;
    /** The resourceVersion as a number, or -1 when it is not one (then {@link #resourceVersion()} decodes). */
    private final long version;
    private final SyncStatus syncStatus;
    private final boolean labelled;
    private final Decoder decoder;

    private StoredResource(String key, byte[] bytes, long version, SyncStatus syncStatus, boolean labelled,
                           Decoder decoder) {
        this.key = key;
        this.bytes = bytes;
        this.version = version;
        this.syncStatus = syncStatus;
        this.labelled = labelled;
        this.decoder = decoder;
    }

    /** {@code summary} is what the record's header says of {@code bytes}, or what decoding them once found. */
    public static StoredResource of(String key, byte[] bytes, ResourceSummary summary, Decoder decoder) {
        return new StoredResource(key, bytes, summary.version(), summary.syncStatus(), summary.labelled(), decoder);
    }

    /** A deletion of a key this view never held: it reads as an object with only its name. */
    public static StoredResource absent(String key) {
        return new StoredResource(key, null, -1, null, false, null);
    }

    public String key() {
        return key;
    }

    /** The record's value as read, not copied; null for {@link #absent}. Callers must not change it. */
    byte[] bytes() {
        return bytes;
    }

    /** The resourceVersion as a number, or -1 when it is none. */
    public long version() {
        return version;
    }

    /** The resourceVersion as the API shows it; null when the object has none. */
    public String resourceVersion() {
        return version >= 0 ? Long.toString(version) : bytes == null ? null : resource().getMetadata().getResourceVersion();
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
        if (bytes == null) {
            ResourceKey k = ResourceKey.parse(key);
            return Resource.newBuilder().setMetadata(ObjectMeta.newBuilder().setKind(k.kind())
                .setNamespace(k.namespace()).setName(k.name()).build()).setStatus(ResourceStatus.newBuilder().build()).build();
        }
        return decoder.apply(bytes);
    }
}
