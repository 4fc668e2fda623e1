package io.statesync.rest.internal;

import java.nio.charset.StandardCharsets;

import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BodyReaderTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadYamlIntoTheSameTreeAsTheEquivalentJson() {
        String yaml = """
            metadata:
              labels: {tier: web}
            spec:
              image: "nginx:1.21"
              plain: nginx:1.21
              replicas: 2
              big: 123456789012345678901234567890
              ratio: 0.5
              on: true
              none: null
              ports: [80, 443]
              containers:
                - name: web
                  env: []
            """;
        String json = "{\"metadata\":{\"labels\":{\"tier\":\"web\"}},\"spec\":{\"image\":\"nginx:1.21\",\"plain\":\"nginx:1.21\","
            + "\"replicas\":2,\"big\":123456789012345678901234567890,\"ratio\":0.5,\"on\":true,\"none\":null,"
            + "\"ports\":[80,443],\"containers\":[{\"name\":\"web\",\"env\":[]}]}}";
        assertThat(BodyReader.yaml(bytes(yaml))).isEqualTo(BodyReader.parse(bytes(json)));
    }

    @Test
    void shouldNameTheLineAndColumnOfASyntaxError() {
        assertThatThrownBy(() -> BodyReader.yaml(bytes("spec:\n  ports: [80\n  image: x\n")))
            .isInstanceOf(ApiError.class).hasMessageStartingWith("malformed YAML at line 3, column 8: expected ',' or ']'");
        assertThatThrownBy(() -> BodyReader.yaml(bytes("spec:\n\tbad: 1\n")))
            .isInstanceOf(ApiError.class).hasMessageStartingWith("malformed YAML at line 2, column 1:");
    }

    @Test
    void shouldRefuseDuplicateKeysASecondDocumentAndAliases() {
        assertThatThrownBy(() -> BodyReader.yaml(bytes("spec:\n  a: 1\n  a: 2\n")))
            .isInstanceOf(ApiError.class).hasMessageContaining("line 3").hasMessageContaining("Duplicate field 'a'");
        assertThatThrownBy(() -> BodyReader.yaml(bytes("spec: {}\n---\nspec: {}\n")))
            .isInstanceOf(ApiError.class).hasMessageContaining("one document");
        assertThatThrownBy(() -> BodyReader.yaml(bytes("spec:\n  a: &x [1]\n  b: *x\n")))
            .isInstanceOf(ApiError.class).hasMessageContaining("line 2").hasMessageContaining("anchors and aliases");
    }

    @Test
    void shouldCallADocumentOfOnlyCommentsEmpty() {
        assertThatThrownBy(() -> BodyReader.yaml(bytes("# nothing\n"))).isInstanceOf(ApiError.class).hasMessage("the body is empty");
    }
}
