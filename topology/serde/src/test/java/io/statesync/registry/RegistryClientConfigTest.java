package io.statesync.registry;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryClientConfigTest {

    @Test
    void shouldSplitCommaSeparatedUrlsAndApplyDefaults() {
        var c = RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, " http://a:8081/x/ , https://b:8081"));

        assertThat(c.urls()).containsExactly(URI.create("http://a:8081/x/"), URI.create("https://b:8081"));
        assertThat(c.retries()).isEqualTo(RegistryClientConfig.DEFAULT_RETRIES);
        assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.truststoreType()).isEqualTo("JKS");
        assertThat(c.basicAuthUserInfo()).isNull();
    }

    @Test
    void shouldReadNumbersGivenAsNumbersOrStrings() {
        var c = RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a", RegistryClientConfig.RETRIES, 2,
            RegistryClientConfig.RETRY_BACKOFF_MS, "7"));

        assertThat(c.retries()).isEqualTo(2);
        assertThat(c.retryBackoff()).isEqualTo(Duration.ofMillis(7));
    }

    @Test
    void shouldUnwrapKafkaPasswords() {
        var c = RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.BEARER_AUTH_TOKEN, new Password("tok")));

        assertThat(c.bearerToken()).isEqualTo("tok");
    }

    @Test
    void shouldNeverPrintSecrets() {
        var c = RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.BASIC_AUTH_USER_INFO, "alice:s3cret",
            RegistryClientConfig.TRUSTSTORE_PASSWORD, "tspw"));

        assertThat(c.toString()).contains("basic").doesNotContain("s3cret", "alice", "tspw");
    }

    @Test
    void shouldRejectBothBasicAndBearerAuth() {
        assertThatThrownBy(() -> RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.BASIC_AUTH_USER_INFO, "a:b", RegistryClientConfig.BEARER_AUTH_TOKEN, "t")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not both");
    }

    @Test
    void shouldRejectUserInfoWithoutPassword() {
        assertThatThrownBy(() -> RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.BASIC_AUTH_USER_INFO, "alice")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("user:password");
    }

    @Test
    void shouldRejectAMissingOrNonHttpUrl() {
        assertThatThrownBy(() -> RegistryClientConfig.fromMap(Map.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema.registry.url");
        assertThatThrownBy(() -> RegistryClientConfig.of("ftp://a"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ftp://a");
    }

    @Test
    void shouldRejectANumberThatIsNotANumber() {
        assertThatThrownBy(() -> RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.RETRIES, "many")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema.registry.retries");
    }

    @Test
    void shouldTreatBlankValuesAsUnset() {
        var c = RegistryClientConfig.fromMap(Map.of(RegistryClientConfig.URL, "http://a",
            RegistryClientConfig.BASIC_AUTH_USER_INFO, " ", RegistryClientConfig.BEARER_AUTH_TOKEN, "t"));

        assertThat(c.basicAuthUserInfo()).isNull();
    }
}
