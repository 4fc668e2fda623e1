package io.statesync.rest.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AnsweredWritesTest {

    private final AnsweredWrites writes = new AnsweredWrites();

    @Test
    void shouldNeedNothingForAKeyThisInstanceNeverWrote() {
        assertThat(writes.needed("WebApp/default/a")).isZero();
    }

    @Test
    void shouldNeedTheAnsweredVersionUntilTheViewShowsIt() {
        writes.answered("k", "12");
        writes.seen("k", 11);
        assertThat(writes.needed("k")).isEqualTo(12);
        writes.seen("k", 12);
        assertThat(writes.needed("k")).isZero();
    }

    @Test
    void shouldKeepTheNewestOfTwoAnswersWhateverTheirOrder() {
        writes.answered("k", "20");
        writes.answered("k", "15");
        assertThat(writes.needed("k")).isEqualTo(20);
    }

    @Test
    void shouldNeedTheKeyGoneAfterADeleteAnsweredWithoutAVersion() {
        writes.answered("k", "");
        assertThat(writes.needed("k")).isEqualTo(AnsweredWrites.DELETED);
        writes.seen("k", 1_000_000);
        assertThat(writes.needed("k")).isEqualTo(AnsweredWrites.DELETED);
        writes.seen("k", AnsweredWrites.DELETED);
        assertThat(writes.needed("k")).isZero();
    }

    @Test
    void shouldIgnoreAVersionThatIsNotANumber() {
        writes.answered("k", "v1");
        assertThat(writes.needed("k")).isZero();
        assertThat(writes.size()).isZero();
    }

    @Test
    void shouldSweepOnceAndThenLetTheMapGrowWhenEveryAnswerIsRecent() {
        for (int i = 0; i <= AnsweredWrites.SWEEP_ABOVE; i++) {
            writes.answered("k" + i, "1");
        }
        assertThat(writes.sweepAbove()).as("no sweep up to the mark").isEqualTo(AnsweredWrites.SWEEP_ABOVE);
        writes.answered("one-more", "1");
        assertThat(writes.size()).as("recent answers survive a sweep").isEqualTo(AnsweredWrites.SWEEP_ABOVE + 2);
        assertThat(writes.sweepAbove()).as("the next sweep waits for twice what the last one left")
            .isEqualTo(2 * (AnsweredWrites.SWEEP_ABOVE + 1));
        writes.answered("and-another", "1");
        assertThat(writes.sweepAbove()).isEqualTo(2 * (AnsweredWrites.SWEEP_ABOVE + 1));
    }

    @Test
    void shouldParseOnlyDigitsAsVersionsAndUnquoteETags() {
        assertThat(ResourceVersions.parse("0042")).isEqualTo(42);
        assertThat(ResourceVersions.parse("-1")).isEqualTo(-1);
        assertThat(ResourceVersions.parse("")).isEqualTo(-1);
        assertThat(ResourceVersions.parse(null)).isEqualTo(-1);
        assertThat(ResourceVersions.parse("9".repeat(19))).isEqualTo(-1);
        assertThat(ResourceVersions.unquote("W/\"7\"")).isEqualTo("7");
        assertThat(ResourceVersions.unquote(" * ")).isNull();
    }
}
