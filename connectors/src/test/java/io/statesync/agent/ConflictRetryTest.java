package io.statesync.agent;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConflictRetryTest {

    private final List<Duration> waits = new ArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private final ConflictRetry noJitter = new ConflictRetry(waits::add, () -> 0.0);

    private static StatesyncApiException conflict(String version) {
        return new StatesyncApiException(409, "Conflict", "resourceVersion " + version + " is stale", version);
    }

    @Test
    void shouldRetryAConflictUntilTheAttemptSucceedsAndReturnItsResult() throws Exception {
        String result = noJitter.run(ConflictRetry.Backoff.DEFAULT_RETRY, ConflictRetry::isConflict, () -> {
            if (attempts.incrementAndGet() < 3) {
                throw conflict(String.valueOf(attempts.get()));
            }
            return "written";
        });

        assertThat(result).isEqualTo("written");
        assertThat(attempts).hasValue(3);
        assertThat(waits).containsExactly(Duration.ofMillis(10), Duration.ofMillis(10));
    }

    @Test
    void shouldStopAfterTheBackoffsStepsAndThrowTheLastConflictUnchanged() {
        List<StatesyncApiException> thrown = new ArrayList<>();

        assertThatThrownBy(() -> noJitter.run(ConflictRetry.Backoff.DEFAULT_RETRY, ConflictRetry::isConflict, () -> {
            StatesyncApiException e = conflict(String.valueOf(attempts.incrementAndGet()));
            thrown.add(e);
            throw e;
        })).isSameAs(thrown.get(thrown.size() - 1));
        assertThat(attempts).hasValue(5);
        assertThat(waits).hasSize(4);
    }

    @Test
    void shouldNotRetryARefusalThatIsNotAStaleVersionConflict() {
        StatesyncApiException notFound = new StatesyncApiException(404, "NotFound", "no such resource", null);
        StatesyncApiException exists = new StatesyncApiException(409, "AlreadyExists", "it exists", null);
        IOException unreachable = new IOException("connection refused");
        for (Exception failure : List.of(notFound, exists, unreachable)) {
            attempts.set(0);
            assertThatThrownBy(() -> noJitter.run(ConflictRetry.Backoff.DEFAULT_RETRY, ConflictRetry::isConflict, () -> {
                attempts.incrementAndGet();
                throw failure;
            })).isSameAs(failure);
            assertThat(attempts).as(failure.getMessage()).hasValue(1);
        }
        assertThat(waits).isEmpty();
    }

    @Test
    void shouldStopRetryingWhenAConflictIsFollowedByAnotherError() {
        StatesyncApiException invalid = new StatesyncApiException(422, "ValidationFailed", "spec.replicas", null);

        assertThatThrownBy(() -> noJitter.run(ConflictRetry.Backoff.DEFAULT_RETRY, ConflictRetry::isConflict, () -> {
            throw attempts.incrementAndGet() == 1 ? conflict("7") : invalid;
        })).isSameAs(invalid);
        assertThat(attempts).hasValue(2);
    }

    @Test
    void shouldLengthenEachWaitByAtMostTheJitterFractionOfItsBase() throws Exception {
        ConflictRetry random = new ConflictRetry(waits::add, () -> ThreadLocalRandom.current().nextDouble());
        ConflictRetry.Backoff backoff = ConflictRetry.Backoff.DEFAULT_BACKOFF;
        for (int i = 0; i < 500; i++) {
            attempts.set(0);
            assertThatThrownBy(() -> random.run(backoff, ConflictRetry::isConflict, () -> {
                throw conflict(String.valueOf(attempts.incrementAndGet()));
            })).isInstanceOf(StatesyncApiException.class);
        }

        assertThat(waits).hasSize(500 * 3);
        long[] bases = {10, 50, 250};
        for (int i = 0; i < waits.size(); i++) {
            Duration base = Duration.ofMillis(bases[i % 3]);
            assertThat(waits.get(i)).isGreaterThanOrEqualTo(base).isLessThan(base.plus(base.dividedBy(10)));
        }
        assertThat(waits.stream().filter(w -> w.compareTo(Duration.ofMillis(10)) > 0
            && w.compareTo(Duration.ofMillis(11)) < 0).count()).as("waits actually jittered").isGreaterThan(100);
    }

    @Test
    void shouldGrowTheWaitByTheFactorUpToTheCap() throws Exception {
        ConflictRetry.Backoff backoff = new ConflictRetry.Backoff(6, Duration.ofMillis(10), 2.0, 0.5,
            Duration.ofMillis(50));
        ConflictRetry maxJitter = new ConflictRetry(waits::add, () -> 0.999_999);

        assertThatThrownBy(() -> maxJitter.run(backoff, ConflictRetry::isConflict, () -> {
            throw conflict("1");
        })).isInstanceOf(StatesyncApiException.class);

        assertThat(waits).extracting(Duration::toMillis).containsExactly(14L, 29L, 59L, 74L, 74L);
    }

    @Test
    void shouldRefuseABackoffWithoutAnAttempt() {
        assertThatThrownBy(() -> new ConflictRetry.Backoff(0, Duration.ofMillis(10), 1.0, 0.1, Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps >= 1");
        assertThatThrownBy(() -> new ConflictRetry.Backoff(3, Duration.ofMillis(10), 1.0, -0.1, Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldLeaveAnInterruptedWaitAsAnInterruption() {
        ConflictRetry interrupted = new ConflictRetry(d -> {
            throw new InterruptedException("stop");
        }, () -> 0.0);

        assertThatThrownBy(() -> interrupted.run(ConflictRetry.Backoff.DEFAULT_RETRY, ConflictRetry::isConflict, () -> {
            attempts.incrementAndGet();
            throw conflict("2");
        })).isInstanceOf(InterruptedException.class);
        assertThat(attempts).hasValue(1);
    }
}
