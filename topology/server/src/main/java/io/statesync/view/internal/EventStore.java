package io.statesync.view.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.view.EventHistory.Entry;

/**
 * The event history's entries, held compactly and within a byte budget. Each resource maps to its newest entry, which
 * links to the next older one, so that the common resource with one or two entries costs no collection of its own.
 * Instants are epoch milliseconds, numeric resourceVersions are longs, messages UTF-8 bytes, and the few types and
 * reasons the pipeline writes are shared.
 *
 * <p>Resources are kept in the order of their newest event's arrival, which follows the events' timestamps: pruning
 * removes them from the front as soon as all their entries are older than the window, and past the budget the longest
 * histories lose their oldest entries first and then the resources whose latest event is the oldest lose theirs.
 *
 * <p>{@link #bytes} counts what the entries cost the heap, their objects' headers and the map's entries included, as
 * a 64-bit JVM with compressed references lays them out. Thread-safe: one lock guards every call.
 */
public final class EventStore {

    /** A map entry of the insertion-ordered map and its share of the table. */
    private static final long KEY_OVERHEAD = 40 + 8;
    /** A {@link Slot}: its header, five references, an int, a boolean and four longs, aligned. */
    private static final long SLOT_BYTES = 72;
    /** Types and reasons are shared while there are at most this many distinct ones, which the pipeline never reaches. */
    private static final int MAX_SHARED_NAMES = 512;
    private static final int MAX_SHARED_NAME_LENGTH = 128;

    /** One aggregated event, the newest of its resource first, linking to the next older one. */
    private static final class Slot {
        String type;
        String reason;
        boolean reasonShared;
        byte[] message;
        int count;
        long firstMillis;
        long lastMillis;
        /** The resourceVersion when it is a decimal number, else -1 and {@link #versionText} holds it (or null). */
        long version;
        String versionText;
        long generation;
        Slot older;

        long bytes() {
            return SLOT_BYTES + arrayBytes(message.length) + (reasonShared ? 0 : stringBytes(reason))
                + (versionText == null ? 0 : stringBytes(versionText));
        }

        boolean same(String t, String r, byte[] m) {
            return type.equals(t) && reason.equals(r) && java.util.Arrays.equals(message, m);
        }

        Entry entry() {
            return new Entry(type, reason, new String(message, StandardCharsets.UTF_8), count,
                Instant.ofEpochMilli(firstMillis), Instant.ofEpochMilli(lastMillis),
                version >= 0 ? Long.toString(version) : versionText, generation);
        }
    }

    private final int maxPerResource;
    private final long maxBytes;
    private final LinkedHashMap<String, Slot> byResource = new LinkedHashMap<>();
    private final Map<String, String> sharedNames = new HashMap<>();
    private long bytes;

    public EventStore(int maxPerResource, long maxBytes) {
        this.maxPerResource = maxPerResource;
        this.maxBytes = maxBytes;
    }

    /** The bytes the entries and their resources' keys cost the heap. */
    public synchronized long bytes() {
        return bytes;
    }

    /** The resources that hold at least one entry. */
    public synchronized int resources() {
        return byResource.size();
    }

    /** The entries of {@code key} last seen at or after {@code oldest}, newest first. */
    public synchronized List<Entry> events(String key, Instant oldest) {
        List<Entry> out = new ArrayList<>();
        for (Slot s = byResource.get(key); s != null; s = s.older) {
            if (s.lastMillis >= oldest.toEpochMilli()) {
                out.add(s.entry());
            }
        }
        return out;
    }

    /**
     * Takes one event: a repeat of an entry the resource has (same type, reason and message) counts on it and moves it
     * to the front, anything else is a new entry. The resource moves to the back of the pruning order.
     */
    public synchronized void add(String key, String type, String reason, String message, Instant at,
                                 String resourceVersion, long generation) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        Slot head = byResource.remove(key);
        if (head == null) {
            bytes += keyBytes(key);
        }
        Slot previous = null;
        Slot repeat = head;
        while (repeat != null && !repeat.same(type, reason, text)) {
            previous = repeat;
            repeat = repeat.older;
        }
        Slot s = repeat;
        if (s == null) {
            s = new Slot();
            s.type = shared(type);
            s.reason = shared(reason);
            s.reasonShared = s.reason == sharedNames.get(reason);
            s.message = text;
            s.firstMillis = at.toEpochMilli();
        } else {
            bytes -= s.bytes();
            if (previous != null) {
                previous.older = s.older;
            }
            head = head == s ? s.older : head;
        }
        s.count++;
        s.lastMillis = at.toEpochMilli();
        setVersion(s, resourceVersion);
        s.generation = generation;
        s.older = head;
        bytes += s.bytes();
        byResource.put(key, s);
        bytes -= cutAfter(s, maxPerResource);
        if (bytes > maxBytes) {
            trimToBudget();
        }
    }

    /** Drops every entry last seen before {@code oldest}, and the resources left without any. */
    public synchronized void pruneOlderThan(Instant oldest) {
        long before = oldest.toEpochMilli();
        for (Iterator<Map.Entry<String, Slot>> it = byResource.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Slot> en = it.next();
            Slot head = en.getValue();
            if (head.lastMillis < before) {
                bytes -= keyBytes(en.getKey()) + chainBytes(head);
                it.remove();
            } else {
                bytes -= cutOlderThan(head, before);
            }
        }
    }

    /**
     * Drops the resources at the front of the pruning order whose newest entry is older than {@code oldest}, stopping
     * at the first that has a newer one: cheap enough for every poll, while {@link #pruneOlderThan} also finds the
     * few that arrived out of their timestamps' order.
     */
    public synchronized void pruneFront(Instant oldest) {
        long before = oldest.toEpochMilli();
        for (Iterator<Map.Entry<String, Slot>> it = byResource.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Slot> en = it.next();
            if (en.getValue().lastMillis >= before) {
                return;
            }
            bytes -= keyBytes(en.getKey()) + chainBytes(en.getValue());
            it.remove();
        }
    }

    /**
     * Trims the longest histories first, each from its oldest entry, then drops whole resources in the pruning order,
     * until the store holds a tenth less than its budget: every resource keeps its newest entries the longest, and a
     * burst of events is trimmed in rounds rather than on every event.
     */
    private void trimToBudget() {
        long target = maxBytes - maxBytes / 10;
        int longest = 0;
        for (Slot head : byResource.values()) {
            longest = Math.max(longest, length(head));
        }
        for (int keep = longest - 1; keep >= 1 && bytes > target; keep--) {
            for (Iterator<Slot> it = byResource.values().iterator(); it.hasNext() && bytes > target; ) {
                bytes -= cutAfter(it.next(), keep);
            }
        }
        for (Iterator<Map.Entry<String, Slot>> it = byResource.entrySet().iterator(); it.hasNext() && bytes > target; ) {
            Map.Entry<String, Slot> en = it.next();
            bytes -= keyBytes(en.getKey()) + chainBytes(en.getValue());
            it.remove();
        }
    }

    /** Keeps the first {@code keep} entries of the chain from {@code head}; returns the bytes dropped. */
    private static long cutAfter(Slot head, int keep) {
        Slot s = head;
        for (int i = 1; i < keep && s != null; i++) {
            s = s.older;
        }
        if (s == null || s.older == null) {
            return 0;
        }
        long dropped = chainBytes(s.older);
        s.older = null;
        return dropped;
    }

    /** Drops the entries after {@code head} last seen before {@code before} (milliseconds); returns their bytes. */
    private static long cutOlderThan(Slot head, long before) {
        long dropped = 0;
        for (Slot s = head; s.older != null; ) {
            if (s.older.lastMillis < before) {
                dropped += s.older.bytes();
                s.older = s.older.older;
            } else {
                s = s.older;
            }
        }
        return dropped;
    }

    private static long chainBytes(Slot head) {
        long n = 0;
        for (Slot s = head; s != null; s = s.older) {
            n += s.bytes();
        }
        return n;
    }

    private static int length(Slot head) {
        int n = 0;
        for (Slot s = head; s != null; s = s.older) {
            n++;
        }
        return n;
    }

    private static void setVersion(Slot s, String resourceVersion) {
        long v = numeric(resourceVersion);
        s.version = v;
        s.versionText = v >= 0 ? null : resourceVersion;
    }

    /** The decimal resourceVersion as a long, or -1 when it is absent or not a plain decimal that round-trips. */
    private static long numeric(String v) {
        if (v == null || v.isEmpty() || v.length() > 18 || (v.length() > 1 && v.charAt(0) == '0')) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** The shared copy of a type or reason, while there are few of them; else the string itself. */
    private String shared(String name) {
        String s = sharedNames.get(name);
        if (s != null) {
            return s;
        }
        if (sharedNames.size() < MAX_SHARED_NAMES && name.length() <= MAX_SHARED_NAME_LENGTH) {
            sharedNames.put(name, name);
        }
        return name;
    }

    private static long keyBytes(String key) {
        return KEY_OVERHEAD + stringBytes(key);
    }

    /** A String of Latin-1 characters or, past them, of UTF-16: its object and its array. */
    static long stringBytes(String s) {
        boolean latin1 = s.chars().allMatch(c -> c < 256);
        return 24 + arrayBytes(latin1 ? s.length() : 2L * s.length());
    }

    static long arrayBytes(long length) {
        return (16 + length + 7) & ~7L;
    }
}
