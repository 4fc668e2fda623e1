package io.statesync.rest.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The signature that marks a forward: bound to its key, role, method, path and time, and nothing a client can make. */
class ForwardCredentialTest {

    private static final String PATH = "/api/v1/resources/WebApp/default/a/diff?x=1";

    private final AtomicLong now = new AtomicLong(1_700_000_000L);
    private final ForwardCredential credential = new ForwardCredential(new byte[] {7, 7, 7}, now::get);

    @Test
    void shouldVerifyItsOwnSignatureForTheSameRolePathAndMethod() {
        assertThat(credential.verifies(signatureOf(credential, PATH, "reader"), "reader", "GET", PATH)).isTrue();
        assertThat(credential.verifies(signatureOf(credential, PATH, "writer"), "writer", "GET", PATH)).isTrue();
    }

    @Test
    void shouldRefuseASignatureForAnotherRolePathMethodOrKey() {
        String signature = signatureOf(credential, PATH, "reader");
        assertThat(credential.verifies(signature, "writer", "GET", PATH)).isFalse();
        assertThat(credential.verifies(signature, "reader", "GET", PATH + "&y=2")).isFalse();
        assertThat(credential.verifies(signature, "reader", "DELETE", PATH)).isFalse();
        ForwardCredential other = new ForwardCredential(new byte[] {7, 7, 8}, now::get);
        assertThat(other.verifies(signature, "reader", "GET", PATH)).isFalse();
    }

    @Test
    void shouldRefuseASignatureOlderOrNewerThanTheAllowedSkew() {
        String signature = signatureOf(credential, PATH, "reader");
        now.addAndGet(ForwardCredential.MAX_SKEW_SECONDS + 1);
        assertThat(credential.verifies(signature, "reader", "GET", PATH)).isFalse();
        now.addAndGet(-2 * (ForwardCredential.MAX_SKEW_SECONDS + 1));
        assertThat(credential.verifies(signature, "reader", "GET", PATH)).isFalse();
    }

    @Test
    void shouldRefuseWhatAClientCanSendWithoutTheSecret() {
        assertThat(credential.verifies("", "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies("1", "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies(now.get() + ".", "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies(now.get() + ".zz", "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies(now.get() + "." + "00".repeat(32), "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies("99999999999999999999999." + "00".repeat(32), "reader", "GET", PATH)).isFalse();
        assertThat(credential.verifies(signatureOf(credential, PATH, "reader"), "admin", "GET", PATH)).isFalse();
        assertThat(credential.verifies(signatureOf(credential, PATH, "reader"), null, "GET", PATH)).isFalse();
    }

    @Test
    void shouldAgreeOnlyBetweenInstancesWithTheSameSecretOrTheSameTokens() {
        Map<String, Object> base = new HashMap<>(Map.of(AppConfig.BOOTSTRAP_SERVERS, "localhost:1", AppConfig.APPLICATION_ID, "app"));
        byte[] tokens = {1, 2, 3};
        ForwardCredential a = ForwardCredential.fromConfig(new AppConfig(base), tokens);
        ForwardCredential sameTokens = ForwardCredential.fromConfig(new AppConfig(base), tokens.clone());
        ForwardCredential otherTokens = ForwardCredential.fromConfig(new AppConfig(base), new byte[] {1, 2, 4});
        String signature = signatureOf(a, PATH, "reader");
        assertThat(sameTokens.verifies(signature, "reader", "GET", PATH)).isTrue();
        assertThat(otherTokens.verifies(signature, "reader", "GET", PATH)).isFalse();

        Map<String, Object> withSecret = new HashMap<>(base);
        withSecret.put(ServerConfig.FORWARD_SECRET, "s3cret");
        ForwardCredential secretA = ForwardCredential.fromConfig(new AppConfig(withSecret), tokens);
        ForwardCredential secretB = ForwardCredential.fromConfig(new AppConfig(withSecret), new byte[] {9});
        assertThat(secretB.verifies(signatureOf(secretA, PATH, "reader"), "reader", "GET", PATH))
            .as("a configured secret does not depend on the tokens").isTrue();
    }

    private static String signatureOf(ForwardCredential c, String path, String role) {
        return c.headerLines(path, role).lines().filter(l -> l.startsWith(ForwardCredential.SIGNATURE_HEADER + ": "))
            .findFirst().orElseThrow().substring(ForwardCredential.SIGNATURE_HEADER.length() + 2);
    }
}
