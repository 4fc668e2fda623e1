package io.statesync.view;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WatchPositionTest {

    @Test
    void shouldRoundTripThroughTheOpaqueToken() {
        WatchPosition p = new WatchPosition(new long[] {0, 17, 123_456_789_012L});
        String token = p.encode();
        assertThat(token).matches("[A-Za-z0-9_-]+");
        assertThat(WatchPosition.decode(token)).isEqualTo(p);
        assertThat(WatchPosition.decode(token).offset(2)).isEqualTo(123_456_789_012L);
    }

    @Test
    void shouldOnlyMoveForwardWhenAdvanced() {
        WatchPosition p = new WatchPosition(new long[] {5, 5});
        assertThat(p.advance(1, 9).offsets()).containsExactly(5, 9);
        assertThat(p.advance(0, 3).offsets()).containsExactly(5, 5);
    }

    @Test
    void shouldMergeToTheLaterOffsetOfEachPartitionAndCoverOnlyWhenNoPartitionIsBehind() {
        WatchPosition p = new WatchPosition(new long[] {5, 9});
        assertThat(p.merge(new WatchPosition(new long[] {7, 2})).offsets()).containsExactly(7, 9);
        assertThat(p.covers(new WatchPosition(new long[] {5, 9}))).isTrue();
        assertThat(p.covers(new WatchPosition(new long[] {4, 1}))).isTrue();
        assertThat(p.covers(new WatchPosition(new long[] {6, 1}))).isFalse();
        assertThat(p.covers(new WatchPosition(new long[] {0, 10}))).isFalse();
    }

    @Test
    void shouldRejectTextThatIsNotAToken() {
        assertThatThrownBy(() -> WatchPosition.decode("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WatchPosition.decode("12345")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WatchPosition.decode("%%%")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WatchPosition.decode(b64("{\"v\":2,\"o\":[1]}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WatchPosition.decode(b64("{\"v\":1,\"o\":[\"x\"]}"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WatchPosition.decode(b64("{\"v\":1,\"o\":[-1]}"))).isInstanceOf(IllegalArgumentException.class);
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
