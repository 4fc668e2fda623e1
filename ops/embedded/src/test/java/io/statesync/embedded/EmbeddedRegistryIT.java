package io.statesync.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.statesync.embedded.internal.RegistryAdmin;
import java.net.ServerSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedRegistryIT {
    @TempDir
    Path dir;

    @Test
    void shouldKeepSubjectsAndCompatibilityAcrossRestart() throws Exception {
        try (EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("registry"), 0)) {
            registry.start();
            String url = registry.url();
            RegistryAdmin admin = new RegistryAdmin(url);
            assertThat(admin.get("/subjects/kept-value/versions").statusCode()).isEqualTo(404);
            registerString(url, "kept-value");
            long firstPid = registry.pid().orElseThrow();

            registry.stop();
            assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            registry.start();

            assertThat(registry.url()).isEqualTo(url);
            assertThat(admin.get("/subjects").body()).contains("kept-value");
            assertThat(admin.get("/config").body()).contains("BACKWARD");
        }
        assertThat(dir.resolve("logs/registry.log")).isNotEmptyFile();
    }

    @Test
    void shouldRefuseToStartOnPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             EmbeddedRegistry registry = new EmbeddedRegistry(dir.resolve("registry"), taken.getLocalPort())) {
            assertThatThrownBy(registry::start).hasMessageContaining("already in use");
            assertThat(registry.isRunning()).isFalse();
        }
    }

    private static void registerString(String url, String subject) throws Exception {
        var client = java.net.http.HttpClient.newHttpClient();
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"schema\":\"\\\"string\\\"\"}")).build();
        assertThat(client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }
}
