package io.statesync.rest;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LabelSelectorTest {

    private static final Map<String, String> WEB = Map.of("tier", "web", "env", "prod");
    private static final Map<String, String> DB = Map.of("tier", "db");

    @Test
    void shouldMatchEverythingWhenBlank() {
        assertThat(LabelSelector.parse(null).matches(WEB)).isTrue();
        assertThat(LabelSelector.parse("  ").matches(Map.of())).isTrue();
    }

    @Test
    void shouldMatchEqualityAndInequality() {
        assertThat(LabelSelector.parse("tier=web").matches(WEB)).isTrue();
        assertThat(LabelSelector.parse("tier==web").matches(DB)).isFalse();
        assertThat(LabelSelector.parse("tier!=web").matches(DB)).isTrue();
        assertThat(LabelSelector.parse("tier!=web").matches(WEB)).isFalse();
    }

    @Test
    void shouldLetInequalityAndNotInMatchObjectsWithoutTheLabel() {
        assertThat(LabelSelector.parse("env!=prod").matches(DB)).isTrue();
        assertThat(LabelSelector.parse("env notin (prod)").matches(DB)).isTrue();
    }

    @Test
    void shouldMatchSetBasedRequirements() {
        assertThat(LabelSelector.parse("tier in (web, db)").matches(DB)).isTrue();
        assertThat(LabelSelector.parse("tier in (cache)").matches(DB)).isFalse();
        assertThat(LabelSelector.parse("tier notin (web)").matches(WEB)).isFalse();
        assertThat(LabelSelector.parse("env").matches(WEB)).isTrue();
        assertThat(LabelSelector.parse("env").matches(DB)).isFalse();
        assertThat(LabelSelector.parse("!env").matches(DB)).isTrue();
    }

    @Test
    void shouldRequireEveryRequirementToHold() {
        assertThat(LabelSelector.parse("tier in (web,db),env=prod").matches(WEB)).isTrue();
        assertThat(LabelSelector.parse("tier in (web,db),env=prod").matches(DB)).isFalse();
        assertThat(LabelSelector.parse("tier in (web,db),env=prod").requirements()).hasSize(2);
    }

    @Test
    void shouldAcceptPrefixedKeysAndEmptyValues() {
        assertThat(LabelSelector.parse("app.kubernetes.io/name=shop").matches(Map.of("app.kubernetes.io/name", "shop"))).isTrue();
        assertThat(LabelSelector.parse("a=").matches(Map.of("a", ""))).isTrue();
    }

    @Test
    void shouldRejectMalformedSelectorsWithTheirReason() {
        assertThatThrownBy(() -> LabelSelector.parse("tier in (web")).hasMessageContaining("parentheses");
        assertThatThrownBy(() -> LabelSelector.parse("tier=web,,env=prod")).hasMessageContaining("empty");
        assertThatThrownBy(() -> LabelSelector.parse("-bad=x")).hasMessageContaining("label key");
        assertThatThrownBy(() -> LabelSelector.parse("tier=we b")).hasMessageContaining("label value");
        assertThatThrownBy(() -> LabelSelector.parse("tier in web")).hasMessageContaining("label key");
    }
}
