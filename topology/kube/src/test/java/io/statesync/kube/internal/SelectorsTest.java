package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

class SelectorsTest {

    private static final Map<String, Function<String[], String>> FIELDS = Map.of("metadata.name", o -> o[0], "type", o -> o[1]);

    @Test
    void shouldMatchEqualityAndInequalityOfFields() {
        Predicate<String[]> p = Selectors.fields("metadata.name==shop,type!=Warning", FIELDS);

        assertThat(p.test(new String[] {"shop", "Normal"})).isTrue();
        assertThat(p.test(new String[] {"shop", "Warning"})).isFalse();
        assertThat(p.test(new String[] {"cart", "Normal"})).isFalse();
        assertThat(Selectors.fields("metadata.name=shop", FIELDS).test(new String[] {"shop", "x"})).isTrue();
    }

    @Test
    void shouldRefuseAFieldItDoesNotKnowAsKubernetesDoes() {
        assertThatThrownBy(() -> Selectors.fields("spec.replicas=3", FIELDS))
            .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.getMessage()).contains("field label not supported"));
        assertThatThrownBy(() -> Selectors.fields("metadata.name", FIELDS)).isInstanceOf(ApiError.class);
    }

    @Test
    void shouldTakeTheSegmentsOfAKey() {
        assertThat(List.of(Selectors.segment("WebApp/default/shop", 0), Selectors.segment("WebApp/default/shop", 1),
            Selectors.segment("WebApp/default/shop", 2))).containsExactly("WebApp", "default", "shop");
    }
}
