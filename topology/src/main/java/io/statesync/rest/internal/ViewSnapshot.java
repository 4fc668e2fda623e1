package io.statesync.rest.internal;

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

/**
 * The REST view written to a local file at a clean stop, so that the next start reads it and then only the topic's
 * tail, instead of all of statesync.resources (suite 5: 1M resources, 550 MB of fetches, 2-4 s before {@code /readyz}).
 *
 * <p>The file holds the view's position (per-partition offsets) and its resources in key order, each as the record's
 * bytes plus its summary; nothing is decoded either way. Whether a snapshot may still be used against the live topic
 * is {@link ViewSnapshotPolicy}'s call. The file is written under a temporary name and renamed, and it ends with a
 * trailer, so a stop that dies half-way leaves either the old file or none, never a truncated one that reads as valid.
 *
 * <p>Layout, all big-endian: {@code MAGIC, writtenAtMs, topic, topicId, partitions, positions[], statuses, names[],
 * count}, then per resource {@code key, version, status index (-1 none), labelled, value}, then {@code MAGIC, count}.
 * Strings and values are an int length and their bytes.
 */
public final class ViewSnapshot {

    /** "SSV1": a statesync view, layout 1; another layout is a new magic, and an old file is then ignored. */
    static final int MAGIC = 0x53535631;
    private static final int BUFFER_BYTES = 4 * 1024 * 1024;
    private static final SyncStatus[] STATUSES = SyncStatus.values();

    /** What a snapshot says about itself and the topic it was read from. */
    public record Header(long writtenAtMs, String topic, String topicId, long[] positions, long count) {
    }

    /** A snapshot read back: its header and its resources by key, as the view's sorted map. */
    public record Loaded(Header header, TreeMap<String, StoredResource> byKey) {
    }

    /** The header and the status names it maps the per-resource status indexes to. */
    private record Prelude(Header header, SyncStatus[] statuses) {
    }

    private ViewSnapshot() {
    }

    /** Writes {@code resources} (in key order, one per key) at {@code header}'s position to {@code file}, atomically. */
    public static void write(Path file, Header header, Collection<StoredResource> resources) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            Output out = new Output(ch);
            writeHeader(out, header, resources.size());
            for (StoredResource r : resources) {
                writeResource(out, r);
            }
            out.putInt(MAGIC);
            out.putLong(resources.size());
            out.flush();
            ch.force(false);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void writeHeader(Output out, Header header, long count) throws IOException {
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
        out.putLong(count);
    }

    private static void writeResource(Output out, StoredResource r) throws IOException {
        byte[] value = r.bytes();
        if (value == null) {
            throw new IllegalArgumentException("the view holds no bytes for " + r.key());
        }
        out.putBytes(r.key().getBytes(StandardCharsets.UTF_8));
        out.putLong(r.version());
        out.putByte(r.syncStatus() == null ? -1 : (byte) r.syncStatus().ordinal());
        out.putByte(r.hasLabels() ? 1 : 0);
        out.putBytes(value);
    }

    /** Only the header of {@code file}, to decide whether reading the rest is worth it. */
    public static Header readHeader(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return readPrelude(new Input(ch)).header();
        }
    }

    /**
     * The whole of {@code file}; an {@link IOException} when it is not a complete snapshot of this layout, or its keys
     * are not in strictly increasing order (the sorted map is built from the file's order without a sort).
     */
    public static Loaded read(Path file, StoredResource.Decoder decoder) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            Input in = new Input(ch);
            Prelude prelude = readPrelude(in);
            long count = prelude.header().count();
            if (count > Integer.MAX_VALUE - 16) {
                throw new IOException("snapshot claims " + count + " resources");
            }
            StoredResource[] resources = new StoredResource[(int) count];
            for (int i = 0; i < resources.length; i++) {
                resources[i] = readResource(in, prelude.statuses(), decoder);
            }
            if (in.getInt() != MAGIC || in.getLong() != count || in.remaining() != 0) {
                throw new IOException("snapshot trailer does not match its header");
            }
            return new Loaded(prelude.header(), inKeyOrder(resources));
        }
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
            throw new IOException("not a statesync view snapshot of layout 1");
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
        return new Prelude(new Header(writtenAt, topic, topicId, positions, in.getLong()), statuses);
    }

    private static StoredResource readResource(Input in, SyncStatus[] statuses, StoredResource.Decoder decoder)
        throws IOException {
        String key = in.getString();
        long version = in.getLong();
        int status = in.getByte();
        if (status < -1 || status >= statuses.length) {
            throw new IOException("snapshot has sync status index " + status + " for " + key);
        }
        boolean labelled = in.getByte() == 1;
        byte[] value = in.getBytes();
        return StoredResource.of(key, value, new ResourceSummary(version, status < 0 ? null : statuses[status], labelled), decoder);
    }

    /** Buffered writes to a channel: a million small fields through a stream's per-call overhead cost seconds. */
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
            if (b.length > buf.capacity()) {
                flush();
                ByteBuffer whole = ByteBuffer.wrap(b);
                while (whole.hasRemaining()) {
                    ch.write(whole);
                }
            } else {
                room(b.length).put(b);
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
