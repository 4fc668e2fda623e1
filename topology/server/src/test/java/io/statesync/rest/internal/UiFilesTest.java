package io.statesync.rest.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which paths the web UI answers without a token (the page and its flat files, nothing that climbs or nests), and
 * that the files are the fixed set read at start, so that an anonymous request for any other name keeps nothing.
 */
class UiFilesTest {

    @TempDir
    Path dir;

    @Test
    void shouldOpenOnlyThePageAndFlatUiFileNames() {
        assertThat(UiFiles.isUiPath("/")).isTrue();
        assertThat(UiFiles.isUiPath("/ui")).isTrue();
        assertThat(UiFiles.isUiPath("/ui/")).isTrue();
        assertThat(UiFiles.isUiPath("/ui/app.js")).isTrue();
        assertThat(UiFiles.isUiPath("/ui/view-resource.js")).isTrue();
        assertThat(UiFiles.isUiPath("/ui/app.css")).isTrue();
    }

    @Test
    void shouldNotOpenOtherPathsTraversalsOrOtherFileTypes() {
        assertThat(UiFiles.isUiPath("/ui/../logback.xml")).isFalse();
        assertThat(UiFiles.isUiPath("/ui/..%2Fpom.xml")).isFalse();
        assertThat(UiFiles.isUiPath("/ui/sub/app.js")).isFalse();
        assertThat(UiFiles.isUiPath("/ui/.hidden.js")).isFalse();
        assertThat(UiFiles.isUiPath("/ui/logback.xml")).isFalse();
        assertThat(UiFiles.isUiPath("/ui/App.class")).isFalse();
        assertThat(UiFiles.isUiPath("/uix/app.js")).isFalse();
        assertThat(UiFiles.isUiPath("/api/v1/resources")).isFalse();
        assertThat(UiFiles.isUiPath("//")).isFalse();
    }

    @Test
    void shouldServeTheFilesOfTheFolderReadAtStartAndNothingAddedLater() throws IOException {
        Path ui = Files.createDirectories(dir.resolve(UiFiles.FOLDER));
        Files.writeString(ui.resolve("index.html"), "<html></html>");
        Files.writeString(ui.resolve("app.js"), "export {};");
        Files.writeString(ui.resolve("notes.txt"), "not a UI file type");
        Files.createDirectories(ui.resolve("nested")).resolve("deep.js").toFile().createNewFile();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            UiFiles files = new UiFiles(loader);
            assertThat(files.names()).containsExactlyInAnyOrder("index.html", "app.js");
            assertThat(new String(files.bytesOf("app.js"), StandardCharsets.UTF_8)).isEqualTo("export {};");

            // A file appearing after start is not looked up: a miss reads nothing and remembers nothing.
            Files.writeString(ui.resolve("late.js"), "export {};");
            for (int i = 0; i < 1_000; i++) {
                assertThat(files.bytesOf("missing-" + i + ".js")).isNull();
            }
            assertThat(files.bytesOf("late.js")).isNull();
            assertThat(files.names()).containsExactlyInAnyOrder("index.html", "app.js");
        }
    }

    @Test
    void shouldReadTheFolderFromAJarAsTheDistributionShipsIt() throws IOException {
        Path jar = dir.resolve("ui.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            entry(out, UiFiles.FOLDER + "/", null);
            entry(out, UiFiles.FOLDER + "/index.html", "<html></html>");
            entry(out, UiFiles.FOLDER + "/dom.js", "export {};");
            entry(out, UiFiles.FOLDER + "/sub/x.js", "export {};");
            entry(out, "other/app.js", "export {};");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            UiFiles files = new UiFiles(loader);
            assertThat(files.names()).containsExactlyInAnyOrder("index.html", "dom.js");
            assertThat(files.bytesOf("app.js")).isNull();
        }
    }

    @Test
    void shouldServeNothingWhenNoModuleShipsTheUi() throws IOException {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            assertThat(new UiFiles(loader).names()).isEmpty();
        }
    }

    private static void entry(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        if (text != null) {
            OutputStream o = out;
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        out.closeEntry();
    }
}
