package io.statesync.topology;

import java.util.regex.Pattern;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceKeyTest {

    /** The contract's two rules (docs/contract.md, section 1) as regular expressions, the subdomain one as Kubernetes writes it. */
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]{0,62}");
    private static final Pattern SUBDOMAIN =
        Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    @Property(tries = 3000)
    void kindCheckAgreesWithItsPattern(@ForAll("keyish") String s) {
        assertThat(ResourceKey.isValidKind(s)).isEqualTo(KIND.matcher(s).matches());
    }

    @Property(tries = 3000)
    void subdomainCheckAgreesWithItsPattern(@ForAll("keyish") String s) {
        assertThat(ResourceKey.isSubdomain(s)).isEqualTo(!s.isEmpty() && s.length() <= 253 && SUBDOMAIN.matcher(s).matches());
    }

    @Test
    void shouldTellTheEdgesOfASubdomain() {
        assertThat(ResourceKey.isSubdomain("a")).isTrue();
        assertThat(ResourceKey.isSubdomain("a--b.c-d.0")).isTrue();
        assertThat(ResourceKey.isSubdomain("a".repeat(253))).isTrue();
        assertThat(ResourceKey.isSubdomain("a".repeat(254))).isFalse();
        for (String bad : new String[] {"", "-a", "a-", "a.", ".a", "a..b", "a-.b", "a.-b", "A", "a_b", "é", "a b"}) {
            assertThat(ResourceKey.isSubdomain(bad)).as("'%s'", bad).isFalse();
        }
        assertThat(ResourceKey.isSubdomain(null)).isFalse();
    }

    @Test
    void shouldTellTheEdgesOfAKind() {
        assertThat(ResourceKey.isValidKind("W")).isTrue();
        assertThat(ResourceKey.isValidKind("WebApp2")).isTrue();
        assertThat(ResourceKey.isValidKind("W" + "a".repeat(62))).isTrue();
        assertThat(ResourceKey.isValidKind("W" + "a".repeat(63))).isFalse();
        for (String bad : new String[] {"", "webApp", "2App", "Web-App", "Web.App", "Wéb", null}) {
            assertThat(ResourceKey.isValidKind(bad)).as("'%s'", bad).isFalse();
        }
    }

    @Test
    void shouldParseAKeyAndSayWhichPartIsWrong() {
        assertThat(ResourceKey.parse("WebApp/default/shop")).isEqualTo(new ResourceKey("WebApp", "default", "shop"));
        assertThatThrownBy(() -> ResourceKey.parse("webapp/default/shop")).hasMessageContaining("kind");
        assertThatThrownBy(() -> ResourceKey.parse("WebApp/Default/shop")).hasMessageContaining("namespace");
        assertThatThrownBy(() -> ResourceKey.parse("WebApp/default/shop-")).hasMessageContaining("name");
    }

    @Provide
    Arbitrary<String> keyish() {
        Arbitrary<String> near = Arbitraries.strings().withChars("abzAZ09-._é /").ofMinLength(0).ofMaxLength(12);
        Arbitrary<String> punctuated = Arbitraries.strings().withChars("a0-.").ofMinLength(1).ofMaxLength(8);
        Arbitrary<String> long_ = Arbitraries.strings().withChars("aZ0-.").ofMinLength(60).ofMaxLength(260);
        return Arbitraries.oneOf(near, near, punctuated, punctuated, long_);
    }
}
