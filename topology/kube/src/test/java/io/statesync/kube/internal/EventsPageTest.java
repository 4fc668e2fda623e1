package io.statesync.kube.internal;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Events lists are held to list.max.bytes: paged with a limit, refused without one, and bad tokens are 400. */
class EventsPageTest {

    private static List<ObjectNode> events(int n, int bytes) {
        List<ObjectNode> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ResourceHandlers.MAPPER.createObjectNode().put("i", i).put("note", "x".repeat(bytes)));
        }
        return out;
    }

    @Test
    void shouldPageEventsPastTheByteBudgetWhenTheClientSentALimitAndListEveryOne() {
        List<ObjectNode> all = events(10, 1_000);
        List<Integer> seen = new ArrayList<>();
        int from = 0;
        int pages = 0;
        while (true) {
            EventsPage page = EventsPage.of(all, from, 500, true, 3_000);
            page.items().forEach(e -> seen.add(e.get("i").asInt()));
            pages++;
            assertThat(page.items().size()).isLessThanOrEqualTo(3);
            if (page.next() == null) {
                break;
            }
            from = EventsPage.start(page.next());
        }
        assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(pages).as("two events of about 1 KB per 3,000-byte page").isEqualTo(5);
    }

    @Test
    void shouldRefuseEventsPastTheByteBudgetWithoutALimitSayingHowToPage() {
        assertThatThrownBy(() -> EventsPage.of(events(10, 1_000), 0, Integer.MAX_VALUE, false, 3_000))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.getMessage()).contains("send limit"));
        assertThat(EventsPage.of(events(2, 1_000), 0, Integer.MAX_VALUE, false, 3_000).items()).hasSize(2);
    }

    @Test
    void shouldRefuseAContinueTokenThatIsNotOne() {
        assertThatThrownBy(() -> EventsPage.start("zz")).isInstanceOf(ApiError.class);
        assertThatThrownBy(() -> EventsPage.start("%%%")).isInstanceOf(ApiError.class);
        assertThat(EventsPage.start(null)).isZero();
    }
}
