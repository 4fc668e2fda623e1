package io.statesync.app;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.statesync.avro.KindPolicy;
import io.statesync.avro.OrphanPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KindPolicySeederTest {

    @Test
    void shouldParseAMapOfKindsFromYaml(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("kinds.yaml");
        Files.writeString(f, """
            WebApp:
              ignoredFields: [status.*, metadata.annotations]
              listMergeKeys: {containers: name}
              orphanPolicy: prune
              correctionDeadlineMs: 5000
              maxAttempts: 4
            Database:
              strict: true
            """);
        List<KindPolicy> policies = KindPolicySeeder.parse(f);
        assertThat(policies).extracting(KindPolicy::getKind).containsExactly("WebApp", "Database");
        KindPolicy web = policies.get(0);
        assertThat(web.getOrphanPolicy()).isEqualTo(OrphanPolicy.PRUNE);
        assertThat(web.getListMergeKeys()).containsEntry("containers", "name");
        assertThat(web.getCorrectionDeadlineMs()).isEqualTo(5000L);
        assertThat(web.getMaxAttempts()).isEqualTo(4);
        assertThat(policies.get(1).getStrict()).isTrue();
    }

    @Test
    void shouldRejectAnInvalidKindName(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("kinds.yaml");
        Files.writeString(f, "- kind: not-a-kind\n");
        assertThatThrownBy(() -> KindPolicySeeder.parse(f)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("kind must match");
    }

    @Test
    void shouldRejectAnInvalidDuration(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("kinds.yaml");
        Files.writeString(f, "- kind: WebApp\n  correctionDeadlineMs: -5\n");
        assertThatThrownBy(() -> KindPolicySeeder.parse(f)).isInstanceOf(IllegalArgumentException.class);
    }
}
