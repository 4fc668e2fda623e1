package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

/** The protobuf subset a Namespace's create needs, encoded here as client-go encodes it (every scalar field written). */
class KubeProtobufTest {

    @Test
    void shouldReadTheNameLabelsAndAnnotationsOfANamespaceAsTheTypedClientSendsIt() {
        byte[] meta = concat(string(1, "team-a"), string(2, ""), string(3, ""), string(4, ""), string(5, ""), string(6, ""),
            varint(7, 0), message(8, concat(varint(1, 0), varint(2, 0))), message(11, concat(string(1, "team"), string(2, "a"))),
            message(12, concat(string(1, "note"), string(2, "x"))));
        ObjectNode ns = KubeProtobuf.namespace(envelope("v1", "Namespace", namespace(meta)));

        assertThat(ns.path("metadata").path("name").asText()).isEqualTo("team-a");
        assertThat(ns.path("metadata").has("generateName")).isFalse();
        assertThat(ns.path("metadata").path("labels").path("team").asText()).isEqualTo("a");
        assertThat(ns.path("metadata").path("annotations").path("note").asText()).isEqualTo("x");
        assertThat(ns.path("kind").asText()).isEqualTo("Namespace");
    }

    @Test
    void shouldReadAGenerateName() {
        ObjectNode ns = KubeProtobuf.namespace(envelope("v1", "Namespace", namespace(string(2, "team-"))));

        assertThat(ns.path("metadata").path("generateName").asText()).isEqualTo("team-");
    }

    @Test
    void shouldRefuseAMetadataFieldItDoesNotReadWhenItCarriesAValue() {
        byte[] meta = concat(string(1, "team-a"), message(13, string(1, "owner")));

        assertUnsupported(envelope("v1", "Namespace", namespace(meta)));
    }

    @Test
    void shouldRefuseAnyOtherKindAndMalformedBodies() {
        assertUnsupported(envelope("v1", "ConfigMap", namespace(string(1, "x"))));
        assertUnsupported("{\"kind\":\"Namespace\"}".getBytes(StandardCharsets.UTF_8));
        byte[] truncated = envelope("v1", "Namespace", namespace(string(1, "team-a")));
        assertUnsupported(java.util.Arrays.copyOf(truncated, truncated.length - 3));
        byte[] deep = string(1, "x");
        for (int i = 0; i < 20; i++) {
            deep = message(15, deep);
        }
        assertUnsupported(envelope("v1", "Namespace", namespace(deep)));
    }

    @Test
    void shouldKnowKubernetesProtobufContentTypes() {
        assertThat(KubeProtobuf.isProtobuf("application/vnd.kubernetes.protobuf")).isTrue();
        assertThat(KubeProtobuf.isProtobuf("application/vnd.kubernetes.protobuf; charset=utf-8")).isTrue();
        assertThat(KubeProtobuf.isProtobuf("application/json")).isFalse();
        assertThat(KubeProtobuf.isProtobuf(null)).isFalse();
    }

    private static void assertUnsupported(byte[] body) {
        assertThatThrownBy(() -> KubeProtobuf.namespace(body)).isInstanceOfSatisfying(ApiError.class,
            e -> assertThat(e.code()).isEqualTo(415));
    }

    private static byte[] envelope(String apiVersion, String kind, byte[] raw) {
        return concat(new byte[] {'k', '8', 's', 0}, message(1, concat(string(1, apiVersion), string(2, kind))),
            message(2, raw), string(3, ""), string(4, ""));
    }

    private static byte[] namespace(byte[] meta) {
        return concat(message(1, meta), message(2, new byte[0]), message(3, string(1, "")));
    }

    private static byte[] string(int field, String s) {
        return message(field, s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] message(int field, byte[] body) {
        return concat(rawVarint(field << 3 | 2), rawVarint(body.length), body);
    }

    private static byte[] varint(int field, long value) {
        return concat(rawVarint(field << 3), rawVarint(value));
    }

    private static byte[] rawVarint(long v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((v & ~0x7fL) != 0) {
            out.write((int) (v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
