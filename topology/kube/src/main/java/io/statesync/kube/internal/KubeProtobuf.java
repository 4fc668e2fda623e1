package io.statesync.kube.internal;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;

/**
 * The one protobuf body this API reads: a {@code v1 Namespace} that kubectl's typed client sends to create a namespace
 * ({@code kubectl create namespace}), since kubectl sends core kinds as {@code application/vnd.kubernetes.protobuf}
 * and client-go does not fall back to JSON when refused. Of the object only {@code metadata.name},
 * {@code generateName}, {@code namespace}, {@code labels} and {@code annotations} are read; {@code spec} and
 * {@code status} are skipped (the server sets a namespace's finalizer and phase); any other field of the metadata that
 * carries a value (the typed client writes every scalar field, empty ones too) is refused with 415, as is every
 * other kind and every malformed body, so that nothing a client meant is dropped unseen.
 *
 * <p>The encoding: the magic {@code k8s\0}, then a {@code runtime.Unknown} (1: typeMeta {1: apiVersion, 2: kind},
 * 2: raw, 3: contentEncoding, 4: contentType) whose raw bytes are the {@code Namespace} (1: metadata, 2: spec,
 * 3: status); in {@code ObjectMeta} 1 is name, 2 generateName, 3 namespace, 11 labels and 12 annotations (maps:
 * repeated entries {1: key, 2: value}).
 */
final class KubeProtobuf {

    static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int BYTES = 2;
    private static final int FIXED32 = 5;
    /** How deep an unread field's value is looked into for a value; Kubernetes' metadata nests less than this. */
    private static final int MAX_DEPTH = 8;

    private KubeProtobuf() {
    }

    /** Whether a Content-Type is Kubernetes' protobuf. */
    static boolean isProtobuf(String contentType) {
        return contentType != null
            && contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT).equals(MEDIA_TYPE);
    }

    /** The Namespace a protobuf body carries, as JSON; 415 for anything this reader does not take. */
    static ObjectNode namespace(byte[] body) {
        if (body.length < MAGIC.length || body[0] != 'k' || body[1] != '8' || body[2] != 's' || body[3] != 0) {
            throw refused("the body does not start with the protobuf envelope's magic");
        }
        Reader envelope = new Reader(body, MAGIC.length, body.length);
        byte[] raw = null;
        String apiVersion = "";
        String kind = "";
        while (envelope.more()) {
            int tag = envelope.tag();
            switch (tag) {
                case 1 << 3 | BYTES -> {
                    Reader typeMeta = envelope.message();
                    while (typeMeta.more()) {
                        int t = typeMeta.tag();
                        if (t == (1 << 3 | BYTES)) {
                            apiVersion = typeMeta.string();
                        } else if (t == (2 << 3 | BYTES)) {
                            kind = typeMeta.string();
                        } else {
                            typeMeta.skip(t);
                        }
                    }
                }
                case 2 << 3 | BYTES -> raw = envelope.bytes();
                case 3 << 3 | BYTES, 4 << 3 | BYTES -> {
                    if (!envelope.string().isEmpty()) {
                        throw refused("the protobuf envelope names a content encoding or type");
                    }
                }
                default -> throw refused("the protobuf envelope has an unknown field " + (tag >>> 3));
            }
        }
        if (!"v1".equals(apiVersion) || !"Namespace".equals(kind) || raw == null) {
            throw refused("only a v1 Namespace is read from a protobuf body, got " + apiVersion + " " + kind);
        }
        return object(new Reader(raw, 0, raw.length));
    }

    private static ObjectNode object(Reader namespace) {
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("apiVersion", "v1").put("kind", "Namespace");
        ObjectNode meta = out.putObject("metadata");
        while (namespace.more()) {
            int tag = namespace.tag();
            if (tag == (1 << 3 | BYTES)) {
                metadata(namespace.message(), meta);
            } else if (tag == (2 << 3 | BYTES) || tag == (3 << 3 | BYTES)) {
                namespace.bytes();
            } else {
                throw refused("the Namespace has an unknown field " + (tag >>> 3));
            }
        }
        return out;
    }

    private static void metadata(Reader m, ObjectNode meta) {
        while (m.more()) {
            int tag = m.tag();
            int field = tag >>> 3;
            switch (tag) {
                case 1 << 3 | BYTES -> putIfSet(meta, "name", m.string());
                case 2 << 3 | BYTES -> putIfSet(meta, "generateName", m.string());
                case 3 << 3 | BYTES -> putIfSet(meta, "namespace", m.string());
                case 11 << 3 | BYTES -> entry(m.message(), meta.with("labels"));
                case 12 << 3 | BYTES -> entry(m.message(), meta.with("annotations"));
                default -> {
                    if (!m.emptyValue(tag)) {
                        throw refused("metadata field " + field + " is not read from a protobuf body");
                    }
                }
            }
        }
    }

    private static void putIfSet(ObjectNode meta, String field, String value) {
        if (!value.isEmpty()) {
            meta.put(field, value);
        }
    }

    private static void entry(Reader e, ObjectNode map) {
        String key = "";
        String value = "";
        while (e.more()) {
            int tag = e.tag();
            if (tag == (1 << 3 | BYTES)) {
                key = e.string();
            } else if (tag == (2 << 3 | BYTES)) {
                value = e.string();
            } else {
                throw refused("a map entry has an unknown field " + (tag >>> 3));
            }
        }
        map.put(key, value);
    }

    private static ApiError refused(String why) {
        return ApiError.unsupportedMediaType("the body of the request was in an unknown format - " + why
            + "; accepted media types include: application/json, application/yaml (and " + MEDIA_TYPE
            + " for a v1 Namespace's name, generateName, labels and annotations)");
    }

    /** A protobuf reader over {@code [pos, end)} of a buffer; every read past the end or malformed is a 415. */
    private static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;
        private final int depth;

        Reader(byte[] buf, int pos, int end) {
            this(buf, pos, end, 0);
        }

        private Reader(byte[] buf, int pos, int end, int depth) {
            if (depth > MAX_DEPTH) {
                throw refused("the body nests deeper than a Namespace does");
            }
            this.buf = buf;
            this.pos = pos;
            this.end = end;
            this.depth = depth;
        }

        boolean more() {
            return pos < end;
        }

        int tag() {
            long tag = varint();
            if (tag <= 0 || tag > Integer.MAX_VALUE) {
                throw refused("a field tag is malformed");
            }
            return (int) tag;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw refused("a varint runs past the end");
                }
                byte b = buf[pos++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw refused("a varint is too long");
        }

        int length() {
            long n = varint();
            if (n < 0 || n > end - pos) {
                throw refused("a length runs past the end");
            }
            return (int) n;
        }

        byte[] bytes() {
            int n = length();
            byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return out;
        }

        String string() {
            int n = length();
            String s = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        Reader message() {
            int n = length();
            Reader r = new Reader(buf, pos, pos + n, depth + 1);
            pos += n;
            return r;
        }

        /** Reads a field's value and answers whether it is empty: zero, an empty string, or a message of empty fields. */
        boolean emptyValue(int tag) {
            switch (tag & 7) {
                case VARINT -> {
                    return varint() == 0;
                }
                case BYTES -> {
                    Reader inner = message();
                    while (inner.more()) {
                        if (!inner.emptyValue(inner.tag())) {
                            return false;
                        }
                    }
                    return true;
                }
                default -> {
                    skip(tag);
                    return false;
                }
            }
        }

        void skip(int tag) {
            switch (tag & 7) {
                case VARINT -> varint();
                case FIXED64 -> advance(8);
                case BYTES -> advance(length());
                case FIXED32 -> advance(4);
                default -> throw refused("a field has an unknown wire type");
            }
        }

        private void advance(int n) {
            if (n > end - pos) {
                throw refused("a field runs past the end");
            }
            pos += n;
        }
    }
}
