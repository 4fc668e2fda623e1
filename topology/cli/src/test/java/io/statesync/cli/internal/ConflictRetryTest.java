package io.statesync.cli.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConflictRetryTest {

    private final List<Duration> pauses = new ArrayList<>();
    private final ConflictRetry exact = new ConflictRetry(pauses::add, () -> 0.0);
    private int sends;

    private static ApiClient.Response answer(int status, String reason) {
        String body = "{\"code\":" + status + ",\"reason\":\"" + reason + "\",\"message\":\"m\",\"resourceVersion\":\"9\"}";
        return new ApiClient.Response(status, ApiClient.parse(body), body);
    }

    /** A call that answers the given responses in turn, counting its sends. */
    private ConflictRetry.Call answering(ApiClient.Response... answers) {
        Deque<ApiClient.Response> left = new ArrayDeque<>(List.of(answers));
        return () -> {
            sends++;
            return left.size() > 1 ? left.poll() : left.peek();
        };
    }

    @Test
    void shouldSendAgainAfterAConflictUntilTheWriteIsAccepted() throws IOException {
        ApiClient.Response ok = answer(200, "SpecChanged");

        ApiClient.Response r = exact.run(ConflictRetry.Backoff.DEFAULT_RETRY,
            answering(answer(409, "Conflict"), answer(409, "Conflict"), ok));

        assertThat(r).isSameAs(ok);
        assertThat(sends).isEqualTo(3);
        assertThat(pauses).containsExactly(Duration.ofMillis(10), Duration.ofMillis(10));
    }

    @Test
    void shouldReturnTheLastConflictOnceTheStepsAreSpent() throws IOException {
        List<ApiClient.Response> conflicts = new ArrayList<>();
        ConflictRetry.Call alwaysLoses = () -> {
            sends++;
            conflicts.add(answer(409, "Conflict"));
            return conflicts.get(conflicts.size() - 1);
        };

        ApiClient.Response r = exact.run(ConflictRetry.Backoff.DEFAULT_RETRY, alwaysLoses);

        assertThat(r).isSameAs(conflicts.get(4));
        assertThat(sends).isEqualTo(5);
        assertThat(pauses).hasSize(4);
    }

    @Test
    void shouldReturnAnAnswerThatIsNotAStaleVersionConflictAtOnce() throws IOException {
        for (ApiClient.Response other : List.of(answer(409, "AlreadyExists"), answer(404, "NotFound"),
                answer(504, "Timeout"), new ApiClient.Response(409, null, "not json"))) {
            sends = 0;
            assertThat(exact.run(ConflictRetry.Backoff.DEFAULT_RETRY, answering(other))).isSameAs(other);
            assertThat(sends).as(other.body()).isEqualTo(1);
        }
        assertThat(pauses).isEmpty();
    }

    @Test
    void shouldEndAtOnceWhenTheServerCannotBeReached() {
        IOException refused = new IOException("connection refused");

        assertThatThrownBy(() -> exact.run(ConflictRetry.Backoff.DEFAULT_RETRY, () -> {
            sends++;
            throw refused;
        })).isSameAs(refused);
        assertThat(sends).isEqualTo(1);
    }

    @Test
    void shouldWaitTheGrowingBaseLengthenedByLessThanTheJitter() throws IOException {
        ConflictRetry jittered = new ConflictRetry(pauses::add, () -> ThreadLocalRandom.current().nextDouble());
        for (int i = 0; i < 300; i++) {
            jittered.run(ConflictRetry.Backoff.DEFAULT_BACKOFF, answering(answer(409, "Conflict")));
        }

        assertThat(pauses).hasSize(300 * 3);
        long[] bases = {10, 50, 250};
        for (int i = 0; i < pauses.size(); i++) {
            Duration base = Duration.ofMillis(bases[i % 3]);
            assertThat(pauses.get(i)).isGreaterThanOrEqualTo(base).isLessThan(base.plus(base.dividedBy(10)));
        }
        assertThat(pauses.stream().distinct().count()).as("waits actually jittered").isGreaterThan(100);
    }

    @Test
    void shouldRefuseABackoffWithoutASend() {
        assertThatThrownBy(() -> new ConflictRetry.Backoff(0, Duration.ofMillis(10), 1.0, 0.1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps >= 1");
    }
}
