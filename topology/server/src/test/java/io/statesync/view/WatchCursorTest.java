package io.statesync.view;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WatchCursorTest {

    private static final WatchPosition AT = new WatchPosition(new long[] {3, 0, 9_876_543_210L});

    @Test
    void shouldRoundTripACursorWithAKey() {
        WatchCursor c = new WatchCursor(AT, "WebApp/näme space/ü \"quoted\"");
        String token = c.encode();
        assertThat(token).matches("[A-Za-z0-9_-]+");
        WatchCursor back = WatchCursor.decode(token);
        assertThat(back).isEqualTo(c);
        assertThat(back.afterKey()).isEqualTo("WebApp/näme space/ü \"quoted\"");
        assertThat(back.position().offset(2)).isEqualTo(9_876_543_210L);
    }

    @Test
    void shouldEncodeAPlainCursorExactlyAsAPosition() {
        WatchCursor plain = new WatchCursor(AT, null);
        assertThat(plain.encode()).isEqualTo(AT.encode());
        assertThat(WatchCursor.decode(AT.encode())).isEqualTo(plain);
        assertThat(WatchCursor.decode(AT.encode()).afterKey()).isNull();
    }

    @Test
    void shouldNotLetAPlainPositionReaderTakeACursorWithAKey() {
        String token = new WatchCursor(AT, "WebApp/default/a").encode();
        assertThatThrownBy(() -> WatchPosition.decode(token)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldHoldTheKeysUpToAndIncludingItsKey() {
        WatchCursor c = new WatchCursor(AT, "WebApp/default/m");
        assertThat(c.holds("WebApp/default/a")).isTrue();
        assertThat(c.holds("WebApp/default/m")).isTrue();
        assertThat(c.holds("WebApp/default/m0")).isFalse();
        assertThat(c.holds("WebApp/default/z")).isFalse();
        assertThat(new WatchCursor(AT, null).holds("zzz")).isTrue();
    }

    @Test
    void shouldRejectTextThatIsNotACursor() {
        for (String bad : new String[] {"", "  ", "garbage", "%%%", b64("[1]"), b64("{\"v\":2,\"o\":[1]}"),
            b64("{\"v\":2,\"o\":[1],\"k\":\"\"}"), b64("{\"v\":2,\"o\":[1],\"k\":7}"), b64("{\"v\":2,\"o\":[-1],\"k\":\"a\"}"),
            b64("{\"v\":2,\"o\":[1.5],\"k\":\"a\"}"), b64("{\"v\":2,\"k\":\"a\"}"), b64("{\"v\":3,\"o\":[1],\"k\":\"a\"}"),
            b64("{\"o\":[1]}"), b64("{\"v\":1,\"o\":[\"x\"]}")}) {
            assertThatThrownBy(() -> WatchCursor.decode(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("position");
        }
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
