package io.statesync.rest.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which paths the web UI answers without a token: the page and its flat files, nothing that climbs or nests. */
class UiFilesTest {

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
}
