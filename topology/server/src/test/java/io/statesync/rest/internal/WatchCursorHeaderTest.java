package io.statesync.rest.internal;

import io.statesync.rest.ApiError;
import io.statesync.view.WatchCursor;
import io.statesync.view.WatchPosition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a watch picks its position from {@code resourceVersion} and the {@code Last-Event-ID} header. */
class WatchCursorHeaderTest {

    private static final String ID = new WatchCursor(new WatchPosition(new long[] {4, 2}), "WebApp/default/b").encode();
    private static final String OTHER = new WatchPosition(new long[] {4, 2}).encode();

    @Test
    void shouldResumeFromLastEventIdExactlyAsFromResourceVersion() {
        assertThat(WatchHandler.cursor(null, ID)).isEqualTo(WatchCursor.decode(ID));
        assertThat(WatchHandler.cursor(ID, null)).isEqualTo(WatchCursor.decode(ID));
        assertThat(WatchHandler.cursor(ID, " " + ID + " ")).isEqualTo(WatchCursor.decode(ID));
    }

    @Test
    void shouldStartWithoutAPositionWhenNeitherIsGiven() {
        assertThat(WatchHandler.cursor(null, null)).isNull();
        assertThat(WatchHandler.cursor("", " ")).isNull();
    }

    @Test
    void shouldRejectResourceVersionAndLastEventIdThatDisagreeWith400() {
        assertThatThrownBy(() -> WatchHandler.cursor(OTHER, ID)).isInstanceOfSatisfying(ApiError.class,
            e -> assertThat(e.code()).isEqualTo(400));
    }

    @Test
    void shouldAnswer410ForALastEventIdThatIsNotAPosition() {
        assertThatThrownBy(() -> WatchHandler.cursor(null, "garbage")).isInstanceOfSatisfying(ApiError.class,
            e -> assertThat(e.code() + " " + e.getMessage()).startsWith("410 Last-Event-ID:"));
    }
}
