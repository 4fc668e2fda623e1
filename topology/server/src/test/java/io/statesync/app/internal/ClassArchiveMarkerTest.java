package io.statesync.app.internal;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ClassArchiveMarkerTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheMarkerOnlyOnceTheInstanceIsReady() {
        Path marker = dir.resolve("run-1.jsa.tmp-42" + ClassArchiveMarker.SUFFIX);
        AtomicInteger asked = new AtomicInteger();

        ClassArchiveMarker.awaitAndMark(marker, () -> {
            assertThat(marker).doesNotExist();
            return asked.incrementAndGet() == 3;
        });

        assertThat(asked).hasValue(3);
        assertThat(marker).exists();
    }

    @Test
    void shouldLeaveNoMarkerWhenItCannotBeWritten() {
        Path marker = dir.resolve("missing-dir").resolve("run-1.jsa.tmp-42" + ClassArchiveMarker.SUFFIX);

        ClassArchiveMarker.awaitAndMark(marker, () -> true);

        assertThat(marker).doesNotExist();
    }
}
