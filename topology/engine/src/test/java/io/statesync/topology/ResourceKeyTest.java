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
        int dot = s.indexOf('.');
        boolean expected = dot < 0 ? KIND.matcher(s).matches()
            : KIND.matcher(s.substring(0, dot)).matches() && subdomain(s.substring(dot + 1))
              && !s.substring(dot + 1).equals("statesync.io");
        assertThat(ResourceKey.isValidKind(s)).isEqualTo(expected);
    }

    @Property(tries = 1000)
    void groupQualifiedKindCheckAgreesWithItsPattern(@ForAll("keyish") String name, @ForAll("keyish") String group) {
        String s = "W" + name.replace(".", "") + "." + group;
        boolean expected = KIND.matcher(s.substring(0, s.indexOf('.'))).matches() && subdomain(group) && !group.equals("statesync.io");
        assertThat(ResourceKey.isValidKind(s)).isEqualTo(expected);
    }

    private static boolean subdomain(String s) {
        return !s.isEmpty() && s.length() <= 253 && SUBDOMAIN.matcher(s).matches();
    }

    @Test
    void shouldQualifyAKindByItsGroupExceptTheDefaultOne() {
        assertThat(ResourceKey.qualifiedKind("WebApp", "statesync.io")).isEqualTo("WebApp");
        assertThat(ResourceKey.qualifiedKind("Widget", "example.com")).isEqualTo("Widget.example.com");
        assertThat(ResourceKey.qualifiedKind("Namespace", "")).isEqualTo("Namespace.core");
        ResourceKey k = ResourceKey.parse("Deployment.apps/default/shop");
        assertThat(k.group()).isEqualTo("apps");
        assertThat(k.kindName()).isEqualTo("Deployment");
        assertThat(ResourceKey.parse("WebApp/default/shop").group()).isEqualTo("statesync.io");
        assertThat(ResourceKey.parse("Namespace.core//team-a").group()).isEmpty();
        assertThat(ResourceKey.parse("Namespace.core//team-a").clusterScoped()).isTrue();
        assertThat(ResourceKey.parse("Namespace.core//team-a").toString()).isEqualTo("Namespace.core//team-a");
        assertThatThrownBy(() -> ResourceKey.parse("WebApp.statesync.io/default/shop")).hasMessageContaining("kind");
        assertThatThrownBy(() -> ResourceKey.parse("Widget.Example.com/default/w")).hasMessageContaining("kind");
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
        assertThat(ResourceKey.isValidKind("Web.app")).isTrue();
        for (String bad : new String[] {"", "webApp", "2App", "Web-App", "Web.App", "Wéb", "Web.", ".app", "W.statesync.io", null}) {
            assertThat(ResourceKey.isValidKind(bad)).as("'%s'", bad).isFalse();
        }
    }

    @Test
    void shouldParseAKeyAndSayWhichPartIsWrong() {
        assertThat(ResourceKey.parse("WebApp/default/shop")).isEqualTo(new ResourceKey("WebApp", "default", "shop"));
        assertThatThrownBy(() -> ResourceKey.parse("webapp/default/shop")).hasMessageContaining("kind");
        assertThatThrownBy(() -> ResourceKey.parse("WebApp/Default/shop")).hasMessageContaining("namespace");
        assertThat(ResourceKey.parse("WebApp//shop").namespace()).isEmpty();
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
