package io.statesync.view.internal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collection;
import java.util.TreeMap;

import io.statesync.avro.SyncStatus;
import io.statesync.topology.ResourceSummary;
import io.statesync.view.SortedRun;
import io.statesync.view.StoredResource;

/**
 * The REST view written to a local file at a clean stop, so that the next start reads it and then only the topic's
 * tail, instead of all of statesync.resources: a start is not ready ({@code /readyz}) until the view has caught up,
 * and reading the whole topic is what makes that slow.
 *
 * <p>The file holds the view's position (per-partition offsets) and its resources in key order, each as the record's
 * bytes plus its summary; nothing is decoded either way. Whether a snapshot may still be used against the live topic
 * is {@link ViewSnapshotPolicy}'s call. The file is written under a temporary name and renamed, and it ends with a
 * trailer, so a stop that dies half-way leaves either the old file or none, never a truncated one that reads as valid.
 *
 * <p>Reading maps the values instead of copying them: only the keys and summaries are read, and each resource points
 * at its value in the mapping ({@link StoredValue#mapped}). A start then allocates heap for the keys and summaries
 * only, not the values, and the values' pages are read when a request first needs them. This is safe because a snapshot
 * is never changed in place: the next one is written to a new file and renamed over it, so the mapped file lives on
 * (unlinked) for as long as resources point into it.
 *
 * <p>Layout, all big-endian: {@code MAGIC, writtenAtMs, topic, topicId, partitions, positions[], statuses, names[],
 * count, valueBytes, maxValueLength}, then the values back to back, then per resource in key order {@code key,
 * version, status index (-1 none), labelled, value length}, then {@code MAGIC, count}. Strings are an int length and
 * their bytes; values are found by adding up the lengths.
 */
public final class ViewSnapshot {

    /** "SSV2": a statesync view, layout 2; another layout is a new magic, and an older file is then ignored. */
    static final int MAGIC = 0x53535632;
    private static final int BUFFER_BYTES = 4 * 1024 * 1024;
    /**
     * Values are mapped in regions that start every REGION_STEP bytes and reach {@code maxValueLength} beyond the next
     * start, so that each value lies whole in the region where it starts (one mapping holds at most 2 GB).
     */
    static final long REGION_STEP = 1L << 30;
    private static final SyncStatus[] STATUSES = SyncStatus.values();

    /** What a snapshot says about itself and the topic it was read from. */
    public record Header(long writtenAtMs, String topic, String topicId, long[] positions, long count) {
    }

    /** A snapshot read back: its header and its resources by key, as the view's sorted map. */
    public record Loaded(Header header, TreeMap<String, StoredResource> byKey) {
    }

    /** The header, the status names it maps the per-resource status indexes to, and the extent of the values. */
    private record Prelude(Header header, SyncStatus[] statuses, long valueBytes, int maxValueLength) {
    }

    private ViewSnapshot() {
    }

    /** Writes {@code resources} (in key order, one per key) at {@code header}'s position to {@code file}, atomically. */
    public static void write(Path file, Header header, Collection<StoredResource> resources) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        StoredResource[] all = resources.toArray(new StoredResource[0]);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            Output out = new Output(ch);
            writeHeader(out, header, all);
            writeValues(out, all);
            for (StoredResource r : all) {
                writeIndexEntry(out, r);
            }
            out.putInt(MAGIC);
            out.putLong(all.length);
            out.flush();
            ch.force(false);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeHeader(Output out, Header header, StoredResource[] all) throws IOException {
        long valueBytes = 0;
        int maxValueLength = 0;
        for (StoredResource r : all) {
            int length = StoredValue.of(r).valueLength();
            if (length < 0) {
                throw new IllegalArgumentException("the view holds no bytes for " + r.key());
            }
            valueBytes += length;
            maxValueLength = Math.max(maxValueLength, length);
        }
        out.putInt(MAGIC);
        out.putLong(header.writtenAtMs());
        out.putBytes(header.topic().getBytes(StandardCharsets.UTF_8));
        out.putBytes(header.topicId().getBytes(StandardCharsets.UTF_8));
        out.putInt(header.positions().length);
        for (long p : header.positions()) {
            out.putLong(p);
        }
        // The status names, so that an index written here still means the same status if the enum is reordered.
        out.putInt(STATUSES.length);
        for (SyncStatus s : STATUSES) {
            out.putBytes(s.name().getBytes(StandardCharsets.UTF_8));
        }
        out.putLong(all.length);
        out.putLong(valueBytes);
        out.putInt(maxValueLength);
    }

    /**
     * The values back to back. Values mapped from an earlier snapshot lie there back to back too, in the same key
     * order, so each run of them is copied file to file by the kernel ({@code transferTo}): a write after a restart
     * or a spill then neither reads those values through this process nor makes their pages resident in it.
     */
    private static void writeValues(Output out, StoredResource[] all) throws IOException {
        MappedRegion runIn = null;
        long runFrom = 0;
        long runLength = 0;
        for (StoredResource resource : all) {
            StoredValue r = StoredValue.of(resource);
            MappedRegion region = r.region();
            if (region != null && runIn != null && region.file() == runIn.file() && r.filePosition() == runFrom + runLength) {
                runLength += r.valueLength();
                continue;
            }
            out.transfer(runIn, runFrom, runLength);
            runIn = region;
            runFrom = r.filePosition();
            runLength = region == null ? 0 : r.valueLength();
            if (region == null) {
                out.putValue(r.value());
            }
        }
        out.transfer(runIn, runFrom, runLength);
    }

    private static void writeIndexEntry(Output out, StoredResource r) throws IOException {
        out.putBytes(r.key().getBytes(StandardCharsets.UTF_8));
        out.putLong(r.version());
        out.putByte(r.syncStatus() == null ? -1 : (byte) r.syncStatus().ordinal());
        out.putByte(r.hasLabels() ? 1 : 0);
        out.putInt(StoredValue.of(r).valueLength());
    }

    /** Only the header of {@code file}, to decide whether reading the rest is worth it. */
    public static Header readHeader(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return readPrelude(new Input(ch)).header();
        }
    }

    /**
     * The whole of {@code file}, its values mapped; an {@link IOException} when it is not a complete snapshot of this
     * layout, or its keys are not in strictly increasing order (the sorted map is built from the file's order without
     * a sort).
     */
    public static Loaded read(Path file, StoredResource.Decoder decoder) throws IOException {
        return read(file, decoder, REGION_STEP);
    }

    /** {@link #read(Path, StoredResource.Decoder)} with regions every {@code regionStep} bytes (tests use small ones). */
    static Loaded read(Path file, StoredResource.Decoder decoder, long regionStep) throws IOException {
        Read read = readAll(file, decoder, regionStep, null);
        return new Loaded(read.prelude().header(), inKeyOrder(read.resources()));
    }

    /**
     * The resources of {@code file}, just written from {@code written} (the same resources in the same order), with
     * their values mapped; each keeps the key string of its counterpart in {@code written}, so that swapping one for
     * the other leaves the view with one copy of each key.
     *
     * @throws IOException when the file is not a complete snapshot of {@code written}'s keys in that order
     */
    static StoredResource[] readMapped(Path file, StoredResource.Decoder decoder, StoredResource[] written) throws IOException {
        StoredResource[] resources = readAll(file, decoder, REGION_STEP, written).resources();
        if (resources.length != written.length) {
            throw new IOException("snapshot holds " + resources.length + " resources, " + written.length + " were written");
        }
        return resources;
    }

    private record Read(Prelude prelude, StoredValue[] resources) {
    }

    private static Read readAll(Path file, StoredResource.Decoder decoder, long regionStep, StoredResource[] keysFrom)
        throws IOException {
        // Not closed on success: the regions keep it for copying their values into the next snapshot.
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            Input in = new Input(ch);
            Prelude prelude = readPrelude(in);
            long count = prelude.header().count();
            if (count > Integer.MAX_VALUE - 16) {
                throw new IOException("snapshot claims " + count + " resources");
            }
            MappedRegion[] regions = mapValues(ch, in, prelude, regionStep);
            StoredValue[] resources = new StoredValue[(int) count];
            long valueAt = 0;
            for (int i = 0; i < resources.length; i++) {
                String known = keysFrom != null && i < keysFrom.length ? keysFrom[i].key() : null;
                resources[i] = readIndexEntry(in, prelude, new Mapping(regions, regionStep, valueAt, known), decoder);
                valueAt += resources[i].valueLength();
            }
            if (valueAt != prelude.valueBytes() || in.getInt() != MAGIC || in.getLong() != count || in.remaining() != 0) {
                throw new IOException("snapshot trailer does not match its header");
            }
            return new Read(prelude, resources);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Where the next value lies in the mapped regions, and the key string to keep when the entry's key equals it. */
    private record Mapping(MappedRegion[] regions, long step, long valueAt, String knownKey) {
    }

    /** Maps the values section, which starts where the prelude ends, and moves {@code in} past it to the index. */
    private static MappedRegion[] mapValues(FileChannel ch, Input in, Prelude prelude, long step) throws IOException {
        long start = in.position();
        long bytes = prelude.valueBytes();
        if (bytes < 0 || bytes > in.remaining() || prelude.maxValueLength() < 0
            || step + prelude.maxValueLength() > Integer.MAX_VALUE) {
            throw new IOException("snapshot claims " + bytes + " bytes of values of up to " + prelude.maxValueLength()
                + " bytes with " + in.remaining() + " bytes left");
        }
        // One region more than the values need when they end on a step, so that every offset has a region, if empty.
        MappedRegion[] regions = new MappedRegion[Math.toIntExact(bytes / step) + 1];
        for (int k = 0; k < regions.length; k++) {
            long from = k * step;
            long size = Math.min(step + prelude.maxValueLength(), bytes - from);
            regions[k] = new MappedRegion(ch.map(FileChannel.MapMode.READ_ONLY, start + from, size).asReadOnlyBuffer(), ch,
                start + from);
        }
        in.skip(bytes);
        return regions;
    }

    private static TreeMap<String, StoredResource> inKeyOrder(StoredResource[] resources) throws IOException {
        try {
            return SortedRun.treeOfSorted(resources);
        } catch (IllegalArgumentException e) {
            throw new IOException("snapshot keys are " + e.getMessage(), e);
        }
    }

    private static Prelude readPrelude(Input in) throws IOException {
        if (in.getInt() != MAGIC) {
            throw new IOException("not a statesync view snapshot of layout 2");
        }
        long writtenAt = in.getLong();
        String topic = in.getString();
        String topicId = in.getString();
        long[] positions = new long[in.getCount(100_000)];
        for (int p = 0; p < positions.length; p++) {
            positions[p] = in.getLong();
        }
        SyncStatus[] statuses = new SyncStatus[in.getCount(1_000)];
        for (int i = 0; i < statuses.length; i++) {
            String name = in.getString();
            statuses[i] = Arrays.stream(STATUSES).filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IOException("snapshot has a sync status this build does not know: " + name));
        }
        Header header = new Header(writtenAt, topic, topicId, positions, in.getLong());
        return new Prelude(header, statuses, in.getLong(), in.getInt());
    }

    private static StoredValue readIndexEntry(Input in, Prelude prelude, Mapping at, StoredResource.Decoder decoder)
        throws IOException {
        String key = in.getString();
        if (key.equals(at.knownKey())) {
            key = at.knownKey();
        }
        long version = in.getLong();
        int status = in.getByte();
        if (status < -1 || status >= prelude.statuses().length) {
            throw new IOException("snapshot has sync status index " + status + " for " + key);
        }
        boolean labelled = in.getByte() == 1;
        int length = in.getInt();
        if (length < 0 || length > prelude.maxValueLength() || at.valueAt() + length > prelude.valueBytes()) {
            throw new IOException("snapshot has a value of " + length + " bytes at " + at.valueAt() + " for " + key);
        }
        int region = (int) (at.valueAt() / at.step());
        ResourceSummary summary = new ResourceSummary(version, status < 0 ? null : prelude.statuses()[status], labelled);
        return StoredValue.mapped(key, at.regions()[region], (int) (at.valueAt() - region * at.step()), length, summary,
            decoder);
    }

    /**
     * Buffered writes to a channel: a snapshot is mostly small fields, and a stream's per-call overhead on each would
     * dominate the write.
     */
    private static final class Output {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER_BYTES);

        Output(FileChannel ch) {
            this.ch = ch;
        }

        void putByte(int b) throws IOException {
            room(1).put((byte) b);
        }

        void putInt(int v) throws IOException {
            room(4).putInt(v);
        }

        void putLong(long v) throws IOException {
            room(8).putLong(v);
        }

        void putBytes(byte[] b) throws IOException {
            putInt(b.length);
            putValue(ByteBuffer.wrap(b));
        }

        /** {@code length} bytes of {@code from}'s file from {@code position}, copied by the kernel after what is buffered. */
        void transfer(MappedRegion from, long position, long length) throws IOException {
            if (from == null || length == 0) {
                return;
            }
            flush();
            long done = 0;
            while (done < length) {
                long n = from.file().transferTo(position + done, length - done, ch);
                if (n <= 0) {
                    throw new IOException("could not copy " + (length - done) + " bytes of values from the previous snapshot");
                }
                done += n;
            }
        }

        /** The value's bytes without a length: the index holds it. */
        void putValue(ByteBuffer value) throws IOException {
            if (value.remaining() > buf.remaining()) {
                flush();
            }
            if (value.remaining() > buf.capacity()) {
                while (value.hasRemaining()) {
                    ch.write(value);
                }
            } else {
                buf.put(value);
            }
        }

        private ByteBuffer room(int n) throws IOException {
            if (buf.remaining() < n) {
                flush();
            }
            return buf;
        }

        void flush() throws IOException {
            buf.flip();
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            buf.clear();
        }
    }

    /**
     * Buffered reads from a channel, with every length checked against what is left of the file. The file's size and
     * the channel's position are kept here: asking the channel costs a system call, four per resource.
     */
    private static final class Input {
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER_BYTES).limit(0);
        private final long size;
        private long read;

        Input(FileChannel ch) throws IOException {
            this.ch = ch;
            this.size = ch.size();
        }

        int getByte() throws IOException {
            return need(1).get();
        }

        int getInt() throws IOException {
            return need(4).getInt();
        }

        long getLong() throws IOException {
            return need(8).getLong();
        }

        int getCount(int max) throws IOException {
            int n = getInt();
            if (n < 0 || n > max) {
                throw new IOException("snapshot has a count of " + n);
            }
            return n;
        }

        String getString() throws IOException {
            return new String(getBytes(), StandardCharsets.UTF_8);
        }

        byte[] getBytes() throws IOException {
            int n = getInt();
            if (n < 0 || n > remaining()) {
                throw new IOException("snapshot has a field of " + n + " bytes with " + remaining() + " left");
            }
            byte[] b = new byte[n];
            int fromBuffer = Math.min(n, buf.remaining());
            buf.get(b, 0, fromBuffer);
            ByteBuffer rest = ByteBuffer.wrap(b, fromBuffer, n - fromBuffer);
            while (rest.hasRemaining()) {
                int got = ch.read(rest);
                if (got < 0) {
                    throw new EOFException("snapshot ends inside a field");
                }
                read += got;
            }
            return b;
        }

        long remaining() {
            return buf.remaining() + size - read;
        }

        /** How far into the file the next get reads. */
        long position() {
            return read - buf.remaining();
        }

        /** Moves past the next {@code n} bytes without reading them; {@code n} is at most {@link #remaining()}. */
        void skip(long n) throws IOException {
            long target = position() + n;
            buf.clear().limit(0);
            ch.position(target);
            read = target;
        }

        private ByteBuffer need(int n) throws IOException {
            if (buf.remaining() < n) {
                buf.compact();
                while (buf.position() < n) {
                    int got = ch.read(buf);
                    if (got < 0) {
                        throw new EOFException("snapshot ends early");
                    }
                    read += got;
                }
                buf.flip();
            }
            return buf;
        }
    }
}
