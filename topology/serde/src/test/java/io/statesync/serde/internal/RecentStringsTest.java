package io.statesync.serde.internal;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecentStringsTest {

    private final RecentStrings recent = new RecentStrings();

    @Test
    void shouldDecodeAShortStringAgainToTheSameInstance() {
        String first = decode("replicas");
        String again = decode("replicas");

        assertThat(again).isEqualTo("replicas").isSameAs(first);
    }

    @Test
    void shouldDecodeAStringLongerThanTheLimitAnewEachTime() {
        String uid = "3f1c2a9e-7b4d-4e8f-9a6b-2c5d8e1f0a7b";
        assertThat(uid.getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThan(RecentStrings.MAX_BYTES);

        String first = decode(uid);
        String again = decode(uid);

        assertThat(again).isEqualTo(uid).isNotSameAs(first);
    }

    @Test
    void shouldReadOnlyTheGivenLengthOfALargerBuffer() {
        byte[] buffer = "imagexyz".getBytes(StandardCharsets.UTF_8);
        assertThat(recent.decode(buffer, 5)).isEqualTo("image");
        assertThat(recent.decode("image".getBytes(StandardCharsets.UTF_8), 5)).isEqualTo("image");
    }

    @Test
    void shouldKeepEveryStringApartWhenManyShareSlots() {
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 4 * RecentStrings.SLOTS; i++) {
                assertThat(decode("app-" + i)).isEqualTo("app-" + i);
            }
        }
    }

    @Test
    void shouldSpreadNamesThatDifferOnlyInTheirLastCharactersOverManySlots() {
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            byte[] bytes = ("app-" + i).getBytes(StandardCharsets.UTF_8);
            slots.add(RecentStrings.slot(bytes, bytes.length));
        }
        // 1,000 random picks of 1,024 slots would find about 630 distinct ones.
        assertThat(slots).hasSizeGreaterThan(550);
    }

    @Property
    void shouldDecodeAnySequenceOfStringsToTheirValues(@ForAll @Size(max = 300) List<@StringLength(max = 40) String> strings) {
        for (String s : strings) {
            assertThat(decode(s)).isEqualTo(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldDecodeMalformedUtf8AsTheJdkDoes() {
        byte[] malformed = {'a', (byte) 0xC3, 'b'};
        assertThat(recent.decode(malformed, 3)).isEqualTo(new String(malformed, StandardCharsets.UTF_8));
        byte[] other = {'a', (byte) 0xC4, 'b'};
        assertThat(recent.decode(other, 3)).isEqualTo(new String(other, StandardCharsets.UTF_8));
    }

    private String decode(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return recent.decode(bytes, bytes.length);
    }
}
