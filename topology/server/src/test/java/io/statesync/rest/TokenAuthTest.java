package io.statesync.rest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenAuthTest {

    private final TokenAuth auth = TokenAuth.parse(List.of("r0:reader", "w0:writer", "# a comment", ""));

    @Test
    void shouldLetReadersReadAndWritersDoBoth() {
        assertThatCode(() -> auth.require("Bearer r0", TokenAuth.Role.READER)).doesNotThrowAnyException();
        assertThatCode(() -> auth.require("Bearer w0", TokenAuth.Role.READER)).doesNotThrowAnyException();
        assertThatCode(() -> auth.require("bearer w0", TokenAuth.Role.WRITER)).doesNotThrowAnyException();
    }

    @Test
    void shouldAnswer403WhenAReaderWrites() {
        assertThatThrownBy(() -> auth.require("Bearer r0", TokenAuth.Role.WRITER))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(403));
    }

    @Test
    void shouldAnswer401WithoutAValidTokenAndNeverEchoIt() {
        for (String header : new String[] {null, "", "Basic abc", "Bearer", "Bearer nope-secret", "Bearer r0x"}) {
            assertThatThrownBy(() -> auth.require(header, TokenAuth.Role.READER))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(401);
                    assertThat(e.getMessage()).doesNotContain("nope-secret");
                });
        }
    }

    @Test
    void shouldBeOpenWithoutTokens() {
        TokenAuth open = TokenAuth.parse(List.of());
        assertThat(open.enabled()).isFalse();
        assertThatCode(() -> open.require(null, TokenAuth.Role.WRITER)).doesNotThrowAnyException();
    }

    @Test
    void shouldRejectUnknownRolesWithoutShowingTheToken() {
        assertThatThrownBy(() -> TokenAuth.parse(List.of("s3cret:admin")))
            .hasMessageContaining("admin").hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> TokenAuth.parse(List.of("s3cret"))).hasMessageNotContaining("s3cret");
    }

    @Test
    void shouldMergeTheInlineTokensWithTheTokensFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");
        Files.writeString(file, "f1:writer\n");
        TokenAuth merged = TokenAuth.fromConfig(new AppConfig(Map.of(ServerConfig.AUTH_TOKENS, "i1:reader",
            ServerConfig.AUTH_TOKENS_FILE, file.toString())));
        assertThatCode(() -> merged.require("Bearer f1", TokenAuth.Role.WRITER)).doesNotThrowAnyException();
        assertThatCode(() -> merged.require("Bearer i1", TokenAuth.Role.READER)).doesNotThrowAnyException();
    }
}
