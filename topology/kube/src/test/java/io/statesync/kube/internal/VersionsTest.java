package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.statesync.rest.ApiError;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.Test;

class VersionsTest {

    @Test
    void shouldResumeFromAnObjectsTokenAtItsPositionAndKey() {
        String token = Versions.token(new WatchPosition(new long[] {3, 7}), "WebApp/default/b", "42");

        WatchCursor cursor = Versions.cursor(token);

        assertThat(cursor.position()).isEqualTo(new WatchPosition(new long[] {3, 7}));
        assertThat(cursor.afterKey()).isEqualTo("WebApp/default/b");
    }

    @Test
    void shouldSendTheObjectsOwnVersionAsThePrecondition() {
        assertThat(Versions.precondition(Versions.token(new WatchPosition(new long[] {3, 7}), null, "42"))).isEqualTo("42");
        assertThat(Versions.precondition("17")).isEqualTo("17");
        assertThat(Versions.precondition("")).isNull();
        assertThat(Versions.precondition(null)).isNull();
    }

    @Test
    void shouldRefuseAListPositionAsAPreconditionWithConflict() {
        String listPosition = Versions.position(new WatchPosition(new long[] {3, 7}));

        assertThatThrownBy(() -> Versions.precondition(listPosition))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(409));
    }

    @Test
    void shouldStartFromTheCurrentObjectsForNoVersionOrZero() {
        assertThat(Versions.cursor(null)).isNull();
        assertThat(Versions.cursor("")).isNull();
        assertThat(Versions.cursor("0")).isNull();
    }

    @Test
    void shouldAnswerExpiredToATokenThatIsNoPosition() {
        assertThatThrownBy(() -> Versions.cursor("12345"))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(410));
    }
}
