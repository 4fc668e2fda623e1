package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.statesync.rest.ApiError;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.Test;

class KubeResourceVersionTest {

    @Test
    void shouldResumeFromAnObjectsTokenAtItsPositionAndKey() {
        String token = KubeResourceVersion.token(new WatchPosition(new long[] {3, 7}), "WebApp/default/b", "42");

        WatchCursor cursor = KubeResourceVersion.cursor(token);

        assertThat(cursor.position()).isEqualTo(new WatchPosition(new long[] {3, 7}));
        assertThat(cursor.afterKey()).isEqualTo("WebApp/default/b");
    }

    @Test
    void shouldKeepTheTokenFormatThatClientsAlreadyHold() {
        String withKey = KubeResourceVersion.token(new WatchPosition(new long[] {3, 7}), "WebApp/default/b", "42");
        String plain = KubeResourceVersion.token(new WatchPosition(new long[] {3, 7}), null, null);

        assertThat(new String(Base64.getUrlDecoder().decode(withKey), StandardCharsets.UTF_8))
            .isEqualTo("{\"v\":2,\"o\":[3,7],\"k\":\"WebApp/default/b\",\"r\":\"42\"}");
        assertThat(new String(Base64.getUrlDecoder().decode(plain), StandardCharsets.UTF_8))
            .isEqualTo("{\"v\":1,\"o\":[3,7],\"r\":\"\"}");
        assertThat(withKey).doesNotContain("=");
    }

    @Test
    void shouldSendTheObjectsOwnVersionAsThePrecondition() {
        assertThat(KubeResourceVersion.precondition(KubeResourceVersion.token(new WatchPosition(new long[] {3, 7}), null, "42"))).isEqualTo("42");
        assertThat(KubeResourceVersion.precondition("17")).isEqualTo("17");
        assertThat(KubeResourceVersion.precondition("")).isNull();
        assertThat(KubeResourceVersion.precondition(null)).isNull();
    }

    @Test
    void shouldRefuseAListPositionAsAPreconditionWithConflict() {
        String listPosition = KubeResourceVersion.position(new WatchPosition(new long[] {3, 7}));

        assertThatThrownBy(() -> KubeResourceVersion.precondition(listPosition))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(409));
    }

    @Test
    void shouldStartFromTheCurrentObjectsForNoVersionOrZero() {
        assertThat(KubeResourceVersion.cursor(null)).isNull();
        assertThat(KubeResourceVersion.cursor("")).isNull();
        assertThat(KubeResourceVersion.cursor("0")).isNull();
    }

    @Test
    void shouldAnswerExpiredToATokenThatIsNoPosition() {
        assertThatThrownBy(() -> KubeResourceVersion.cursor("12345"))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(410));
    }
}
