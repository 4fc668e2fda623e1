package io.statesync.ui;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.embedded.TcpRelay;
import io.statesync.embedded.junit.EmbeddedClusterExtension;
import io.statesync.schemas.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The web UI in a real headless Chromium against a real instance on the embedded broker and registry. The browser
 * reaches the instance through {@link TcpRelay}, so that a test can drop the watch stream.
 */
@ExtendWith(EmbeddedClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UiBrowserIT {

    private static final Duration LIVE = Duration.ofSeconds(2);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static UiInstance instance;
    private static TcpRelay proxy;
    private static Browser browser;
    private static String page;

    @RegisterExtension
    final TestWatcher screenshotOnFailure = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            if (browser != null) {
                browser.failed(context.getRequiredTestMethod().getName());
            }
        }
    };

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(Browser.available(), "skipped: the browser tests need Debian's chromium and chromium-driver "
            + "(" + Browser.CHROMIUM + ", " + Browser.CHROMEDRIVER + "); apt-get install -y chromium chromium-driver");
        instance = new UiInstance();
        proxy = new TcpRelay(instance.app.httpPort());
        page = "http://127.0.0.1:" + proxy.port() + "/";
        browser = new Browser();
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (instance != null) {
            instance.close();
        }
    }

    @Test
    @Order(1)
    void shouldAskForATokenAndShowAReaderNoWriteControls() throws Exception {
        String ns = namespace();
        instance.put(path("WebApp", ns, "shop"), Map.of("image", "nginx:1.21"), Map.of());
        browser.open(page);
        browser.screenshot("sign-in");
        signIn(UiInstance.READER);
        await().atMost(SETTLE).until(() -> browser.text("#who"), t -> t.contains("reader (read-only)"));
        show("#/resources/WebApp/" + ns + "/shop");
        browser.await(By.id("fields"), SETTLE);
        assertThat(browser.driver.findElements(By.id("save"))).as("a reader gets no save button").isEmpty();
        browser.driver.executeScript("sessionStorage.clear()");
        browser.open(page);
        signIn(UiInstance.WRITER);
        await().atMost(SETTLE).until(() -> browser.text("#who"), t -> t.startsWith("writer"));
    }

    @Test
    @Order(2)
    void shouldListResourcesWrittenBeforeAndShowAPutWithinTwoSecondsWithoutReload() throws Exception {
        String ns = namespace();
        for (int i = 0; i < 3; i++) {
            instance.put(path("WebApp", ns, "before-" + i), Map.of("replicas", i), Map.of("tier", "web"));
        }
        show("#/resources?namespace=" + ns);
        await().atMost(SETTLE).until(() -> browser.rows().size() == 3);
        Object marker = browser.driver.executeScript("return window.__sameDocument = 'yes'");
        String focused = "WebApp/" + ns + "/before-1";
        browser.driver.executeScript("[...document.querySelectorAll('#resources a')].find(a => a.dataset.focus === arguments[0]).focus()", focused);
        instance.put(path("WebApp", ns, "live"), Map.of("replicas", 1), Map.of("tier", "web"));
        await().atMost(LIVE).until(() -> browser.rows().containsKey("WebApp/" + ns + "/live"));
        assertThat(browser.driver.executeScript("return window.__sameDocument")).as("no reload").isEqualTo(marker);
        assertThat(browser.driver.executeScript("return document.activeElement.dataset.focus"))
            .as("the keyboard focus survives the live repaint").isEqualTo(focused);
        browser.screenshot("resources");
    }

    @Test
    @Order(3)
    void shouldNarrowTheListByALabelSelectorAndCarryItInTheUrl() throws Exception {
        String ns = namespace();
        for (String tier : List.of("web", "db")) {
            for (int i = 0; i < 2; i++) {
                instance.put(path("WebApp", ns, tier + "-" + i), Map.of("replicas", i), Map.of("tier", tier));
            }
        }
        show("#/resources?namespace=" + ns);
        await().atMost(SETTLE).until(() -> browser.rows().size() == 4);
        WebElement selector = browser.driver.findElement(By.id("f-labelSelector"));
        selector.sendKeys("tier=web");
        browser.driver.findElement(By.cssSelector("form.filters button[type=submit]")).click();
        await().atMost(SETTLE).until(() -> browser.rows().keySet(),
            keys -> keys.equals(java.util.Set.of("WebApp/" + ns + "/web-0", "WebApp/" + ns + "/web-1")));
        assertThat(browser.driver.getCurrentUrl()).contains("labelSelector=tier%3Dweb").contains("namespace=" + ns);
        browser.screenshot("resources-filtered");
    }

    @Test
    @Order(4)
    void shouldHighlightADriftedFieldWithBothValuesAndMarkIgnoredFields() throws Exception {
        String ns = namespace();
        instance.send("PUT", "/api/v1/kinds/Drifty", Map.of("ignoredFields", List.of("debug")));
        Map<String, Object> spec = Map.of("image", "nginx:1.21", "replicas", 3, "debug", true, "env", Map.of("ENV", "prod"));
        String path = path("Drifty", ns, "web");
        instance.put(path, spec, Map.of("app", "web"));
        JsonNode synced = awaitSync(path, "Synced");
        instance.agent.hold();
        try {
            Map<String, Object> drifted = new HashMap<>(spec);
            drifted.put("replicas", 5);
            drifted.put("sidecar", "on");
            instance.agent.report("Drifty/" + ns + "/web", synced.path("metadata").path("uid").asText(),
                synced.path("metadata").path("generation").asLong(), Values.fromJava(drifted), null);
            show("#/resources/Drifty/" + ns + "/web");
            await().atMost(SETTLE).until(() -> browser.attribute(field("replicas"), "class"), c -> c.contains("d-changed"));
            assertThat(browser.text(field("replicas"))).contains("3").contains("5").contains("changed");
            assertThat(browser.attribute(field("debug"), "class")).contains("d-ignored");
            assertThat(browser.text(field("debug"))).contains("ignored");
            assertThat(browser.attribute(field("image"), "class")).contains("d-same");
            assertThat(browser.text(field("sidecar"))).as("a field only the agent reports").contains("\"on\"");
            browser.screenshot("resource-drift");
            assertThat(instance.send("PUT", path + "/status", Map.of("status", Map.of("readyReplicas", 3))).statusCode())
                .isEqualTo(200);
            await().atMost(SETTLE).until(() -> browser.text("#reported-status"), t -> t.contains("readyReplicas: 3"));
        } finally {
            instance.agent.release();
        }
    }

    @Test
    @Order(5)
    void shouldSaveAYamlEditAsANewGenerationAndShowAConflictAfterAConcurrentWrite() throws Exception {
        String ns = namespace();
        String path = path("WebApp", ns, "edit");
        instance.put(path, Map.of("replicas", 1), Map.of());
        awaitSync(path, "Synced");
        show("#/resources/WebApp/" + ns + "/edit");
        editSpec("replicas: 1", "replicas: 2");
        browser.driver.findElement(By.id("save")).click();
        await().atMost(SETTLE).until(() -> browser.text(".msg.ok"), t -> t.contains("generation 2"));
        assertThat(instance.get(path).path("spec").path("replicas").asInt()).isEqualTo(2);

        String base = awaitSync(path, "Synced").path("metadata").path("resourceVersion").asText();
        await().atMost(SETTLE).until(() -> browser.text("#edit-help"), t -> t.contains("version " + base + ";"));
        editSpec("replicas: 2", "replicas: 9");
        String newer = instance.put(path, Map.of("replicas", 7), Map.of()).path("metadata").path("resourceVersion").asText();
        browser.driver.findElement(By.id("save")).click();
        String shown = await().atMost(SETTLE).until(() -> browser.text("#conflict-version"), t -> !t.isEmpty());
        assertThat(Long.parseLong(shown)).as("the conflict names a version newer than the edited " + base)
            .isGreaterThanOrEqualTo(Long.parseLong(newer));
        assertThat(browser.text("#edit-result pre")).as("the current spec, as YAML").contains("replicas: 7");
        browser.screenshot("resource-conflict");
        browser.driver.findElement(By.id("reload")).click();
        await().atMost(SETTLE).until(() -> browser.text("#spec-editor"), v -> v.contains("replicas: 7"));
        assertThat(instance.get(path).path("metadata").path("generation").asLong()).isEqualTo(3);
    }

    @Test
    @Order(6)
    void shouldShowAYamlSyntaxErrorWithItsLineUnderTheEditorAndSaveNothing() throws Exception {
        String ns = namespace();
        String path = path("WebApp", ns, "typo");
        instance.put(path, Map.of("replicas", 1, "ports", List.of(80)), Map.of());
        show("#/resources/WebApp/" + ns + "/typo");
        editSpec("replicas: 1", "replicas: [1");
        browser.driver.findElement(By.id("save")).click();
        String error = await().atMost(SETTLE).until(() -> browser.text("#edit-result .msg.error"), t -> !t.isEmpty());
        assertThat(error).contains("400").contains("malformed YAML at line");
        assertThat(browser.attribute("#spec-editor", "aria-invalid")).isEqualTo("true");
        Object selected = browser.driver.executeScript(
            "const t = document.getElementById('spec-editor'); return t.value.slice(t.selectionStart, t.selectionEnd)");
        int line = Integer.parseInt(error.replaceAll("(?s).*malformed YAML at line (\\d+).*", "$1"));
        assertThat(selected).as("the editor selects the line the message names")
            .isEqualTo(browser.text("#spec-editor").split("\n")[line - 1]);
        browser.screenshot("resource-yaml-error");
        assertThat(instance.get(path).path("metadata").path("generation").asLong()).as("nothing was stored").isEqualTo(1);
    }

    @Test
    @Order(7)
    void shouldSaveAnUneditedSpecOfAwkwardValuesAsTheSameObject() throws Exception {
        String ns = namespace();
        String path = path("WebApp", ns, "awkward");
        Map<String, Object> spec = new HashMap<>();
        spec.put("strings", List.of("true", "1.21", "", "a: b", " lead", "x #y", "null", "~", "yes", "Off", "multi\nline",
            "quote\"d", "unicod\u00e9 \u2713", "sep\u2028x", "nginx:1.21", "a:", "-x", "*x", "{a}", "plain words"));
        spec.put("numbers", List.of(0, -1, 1.5, 123456789, -0.25));
        spec.put("nested", List.of(List.of(1, 2), List.of(), Map.of(), List.of(Map.of("a", true))));
        spec.put("containers", List.of(Map.of("name", "web", "env", List.of(Map.of("name", "A", "value", "1")))));
        spec.put("80", "port");
        spec.put("key: x", false);
        instance.put(path, spec, Map.of("app.kubernetes.io/name", "web"));
        String before = awaitSync(path, "Synced").path("metadata").path("resourceVersion").asText();
        show("#/resources/WebApp/" + ns + "/awkward");
        await().atMost(SETTLE).until(() -> browser.text("#edit-help"), t -> t.contains("version " + before + ";"));
        browser.driver.findElement(By.id("save")).click();
        await().atMost(SETTLE).until(() -> browser.text(".msg.ok"), t -> t.contains("generation 1"));
        JsonNode stored = instance.get(path);
        assertThat(stored.path("spec")).as("the YAML the page showed reads back as the same spec")
            .isEqualTo(UiInstance.JSON.valueToTree(spec));
        assertThat(stored.path("metadata").path("resourceVersion").asText()).as("an unchanged save is a no-op").isEqualTo(before);
    }

    @Test
    @Order(8)
    void shouldShowCreatedSpecChangedAndAConflictInTheEventsTimelineAsTheyHappen() throws Exception {
        String ns = namespace();
        String path = path("WebApp", ns, "history");
        String first = instance.put(path, Map.of("replicas", 1), Map.of()).path("metadata").path("resourceVersion").asText();
        instance.put(path, Map.of("replicas", 2), Map.of());
        show("#/resources/WebApp/" + ns + "/history");
        await().atMost(SETTLE).until(() -> eventReasons(), r -> r.containsAll(List.of("SpecChanged", "Created")));
        HttpResponse<String> stale = instance.send("PUT", path, Map.of("spec", Map.of("replicas", 3)), "If-Match", "\"" + first + "\"");
        assertThat(stale.statusCode()).isEqualTo(409);
        List<String> reasons = await().atMost(SETTLE).until(() -> eventReasons(), r -> r.contains("ResourceVersionMismatch"));
        assertThat(reasons).as("newest first").startsWith("ResourceVersionMismatch")
            .containsSubsequence("ResourceVersionMismatch", "SpecChanged", "Created");
        assertThat(browser.text("#events li:first-child")).contains("Conflict");
        assertThat(browser.text("#events")).contains("generation 2");
        browser.screenshotAt("events-h", "resource-events");
    }

    @Test
    @Order(9)
    void shouldResumeADroppedStreamWithNoMissingAndNoDuplicatedRows() throws Exception {
        String ns = namespace();
        for (int i = 0; i < 5; i++) {
            instance.put(path("WebApp", ns, "r-" + i), Map.of("n", 0), Map.of());
        }
        show("#/resources?namespace=" + ns);
        await().atMost(SETTLE).until(() -> browser.rows().size() == 5);
        String resumesBefore = browser.driver.findElement(By.id("live")).getDomAttribute("data-resumes");
        proxy.stop();
        for (int i = 3; i < 10; i++) {
            instance.put(path("WebApp", ns, "r-" + i), Map.of("n", 1), Map.of());
        }
        Thread.sleep(1_000);
        proxy.start();
        await().atMost(SETTLE).until(() -> browser.rows().equals(serverRows(ns)));
        WebElement live = browser.driver.findElement(By.id("live"));
        assertThat(Integer.parseInt(live.getDomAttribute("data-resumes"))).isGreaterThan(Integer.parseInt(resumesBefore));
        assertThat(live.getDomAttribute("data-stale-events")).as("events delivered twice").isEqualTo("0");
        assertThat(browser.rows()).hasSize(10);
    }

    @Test
    @Order(10)
    void shouldShowTheOverviewAndTheKindPolicies() throws Exception {
        show("#/");
        await().atMost(SETTLE).until(() -> browser.text("#convergence"), t -> t.contains("median"));
        await().atMost(SETTLE).until(() -> browser.text("#by-sync"), t -> t.contains("Synced"));
        browser.screenshot("overview");
        show("#/kinds");
        assertThat(browser.await(By.id("kind-Drifty"), SETTLE).getText()).contains("debug");
        browser.screenshot("kinds");
    }

    @Test
    @Order(11)
    void shouldShowAKindPolicysValidationErrorNextToItsEditor() throws Exception {
        show("#/kinds");
        WebElement section = browser.await(By.id("kind-Drifty"), SETTLE);
        section.findElement(By.tagName("summary")).click();
        WebElement editor = section.findElement(By.tagName("textarea"));
        assertThat(editor.getDomProperty("value")).as("the policy as YAML").contains("kind: Drifty").contains("  - debug");
        browser.driver.executeScript("arguments[0].value = arguments[0].value.replace('maxAttempts: null', 'maxAttempts: many')", editor);
        section.findElement(By.cssSelector(".actions button")).click();
        WebElement error = browser.await(By.cssSelector("#kind-Drifty .msg.error"), SETTLE);
        assertThat(error.getText()).contains("400").contains("maxAttempts");
        assertThat(editor.getDomAttribute("aria-invalid")).isEqualTo("true");
        browser.screenshot("kinds-invalid");
        assertThat(instance.get("/api/v1/kinds/Drifty").path("maxAttempts").isNull()).as("nothing was stored").isTrue();
    }

    @Test
    @Order(12)
    void shouldServeThePageWithoutATokenAndNothingElseOfTheClassPath() {
        HttpResponse<String> index = anonymous("/");
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(index.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(t -> assertThat(t).contains("default-src 'self'"));
        assertThat(anonymous("/ui/").body()).isEqualTo(index.body());
        assertThat(anonymous("/ui").body()).isEqualTo(index.body());
        assertThat(anonymous("/ui/app.js").headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
        assertThat(anonymous("/ui/missing.js").statusCode()).isEqualTo(404);
        assertThat(anonymous("/ui/logback.xml").statusCode()).as("not a UI file name: needs a token like any path").isEqualTo(401);
        assertThat(anonymous("/api/v1/resources").statusCode()).isEqualTo(401);
    }

    @Test
    @Order(13)
    void shouldShowAnOwnersDependentsAsALinkedTreeAndWhoControlsADependent() throws Exception {
        String ns = namespace();
        String uid = owner(ns, "shop");
        String other = owner(ns, "other");
        dependent("Deployment", ns, "shop-web", ref("WebApp", "shop", uid, true));
        dependent("Service", ns, "shop-svc", ref("WebApp", "shop", uid, true), ref("WebApp", "other", other, false));
        String deployment = instance.get(path("Deployment", ns, "shop-web")).path("metadata").path("uid").asText();
        dependent("ReplicaSet", ns, "shop-web-1", ref("Deployment", "shop-web", deployment, true));
        show("#/resources/WebApp/" + ns + "/shop");
        await().atMost(SETTLE).until(() -> dependentLinks("#dependents > li"), l -> l.equals(Map.of(
            "Deployment/" + ns + "/shop-web", "#/resources/Deployment/" + ns + "/shop-web",
            "Service/" + ns + "/shop-svc", "#/resources/Service/" + ns + "/shop-svc")));
        WebElement web = browser.driver.findElement(By.cssSelector(node("Deployment/" + ns + "/shop-web")));
        String sync = web.getDomAttribute("data-sync");
        assertThat(sync).as("each dependent's sync status").isNotEmpty();
        assertThat(web.findElement(By.cssSelector(".badge")).getText()).isEqualTo(sync);
        web.findElement(By.cssSelector("button[aria-expanded=false]")).click();
        await().atMost(SETTLE).until(() -> dependentLinks(node("Deployment/" + ns + "/shop-web") + " > ul > li"),
            l -> l.equals(Map.of("ReplicaSet/" + ns + "/shop-web-1", "#/resources/ReplicaSet/" + ns + "/shop-web-1")));
        browser.screenshotAt("dependents-h", "resource-dependents");

        show("#/resources/Service/" + ns + "/shop-svc");
        WebElement controller = browser.await(By.cssSelector("#controlled-by a"), SETTLE);
        assertThat(controller.getText()).isEqualTo("WebApp " + ns + "/shop");
        assertThat(controller.getDomAttribute("href")).isEqualTo("#/resources/WebApp/" + ns + "/shop");
        assertThat(browser.text("#other-owners")).isEqualTo("WebApp " + ns + "/other");
        browser.screenshotAt("owners-h", "resource-owners");
    }

    @Test
    @Order(14)
    void shouldLeaveTheDependentsWithoutTheReferenceAfterAnOrphanDeleteFromThePage() throws Exception {
        String ns = namespace();
        List<String> dependents = ownerWithTwoDependents(ns);
        deleteFromThePage("Orphan");
        await().atMost(SETTLE).until(() -> instance.send("GET", path("WebApp", ns, "shop"), null).statusCode() == 404);
        for (String d : dependents) {
            await().atMost(SETTLE).until(() -> instance.get(d).path("metadata").path("ownerReferences"),
                refs -> refs.isMissingNode() || refs.isEmpty());
            assertThat(instance.send("GET", d, null).statusCode()).as("the dependent stays").isEqualTo(200);
        }
        awaitTheOwnerGoneWithNoDependentsShown();
    }

    @Test
    @Order(15)
    void shouldRemoveTheDependentsAfterABackgroundDeleteFromThePage() throws Exception {
        String ns = namespace();
        List<String> dependents = ownerWithTwoDependents(ns);
        assertThat(browser.driver.findElement(By.id("propagation-Background")).isSelected()).as("the default").isTrue();
        deleteFromThePage(null);
        for (String d : dependents) {
            await().atMost(SETTLE).until(() -> instance.send("GET", d, null).statusCode() == 404);
        }
        awaitTheOwnerGoneWithNoDependentsShown();
    }

    @Test
    @Order(16)
    void shouldShowTheOwnerDeletingWithItsDeletionTimestampWhileAForegroundDeleteWaitsForADependent() throws Exception {
        String ns = namespace();
        String uid = owner(ns, "shop");
        String held = path("Deployment", ns, "held");
        HttpResponse<String> r = instance.send("PUT", held, Map.of("metadata", Map.of("finalizers", List.of("example.com/keep"),
            "ownerReferences", List.of(ref("WebApp", "shop", uid, true))), "spec", Map.of("replicas", 1)));
        assertThat(r.statusCode()).as(r.body()).isLessThan(300);
        awaitSync(held, "Synced");
        show("#/resources/WebApp/" + ns + "/shop");
        browser.await(By.cssSelector(node("Deployment/" + ns + "/held")), SETTLE);
        deleteFromThePage("Foreground");
        String since = await().atMost(SETTLE).until(() -> instance.get(path("WebApp", ns, "shop")).path("metadata")
            .path("deletionTimestamp").asText(), t -> !t.isEmpty());
        await().atMost(SETTLE).until(() -> browser.text("#deleting"), t -> t.contains("Deleting since " + since));
        await().atMost(SETTLE).until(() -> browser.text(node("Deployment/" + ns + "/held")), t -> t.contains("Deleting"));
        assertThat(browser.text("#delete-result")).contains("Foreground");
        browser.screenshotAt("deleting", "resource-foreground-deletion");
    }

    @Test
    @Order(17)
    void shouldListAndOpenAKindOfAnotherGroupAndAClusterScopedObject() throws Exception {
        String ns = namespace();
        String region = ns + "-region";
        instance.put(path("Widget.example.com", ns, "w1"), Map.of("size", "small"), Map.of());
        instance.put(path("Region.example.com", "-", region), Map.of("zones", 3), Map.of());
        show("#/resources?namespace=" + ns);
        await().atMost(SETTLE).until(() -> browser.rows().containsKey("Widget.example.com/" + ns + "/w1"));
        show("#/resources?kind=Region.example.com");
        await().atMost(SETTLE).until(() -> browser.rows().containsKey("Region.example.com//" + region));
        browser.driver.executeScript("[...document.querySelectorAll('#resources a')].find(a => a.dataset.focus === arguments[0]).click()",
            "Region.example.com//" + region);

        await().atMost(SETTLE).until(() -> browser.text("#spec-editor"), t -> t.contains("zones"));
        assertThat((String) browser.driver.executeScript("return location.hash"))
            .isEqualTo("#/resources/Region.example.com/-/" + region);
        browser.screenshot("resource-cluster-scoped");
    }

    /** An owner WebApp "shop" with a Deployment and a Service it controls, shown on the owner's page. */
    private static List<String> ownerWithTwoDependents(String ns) {
        String uid = owner(ns, "shop");
        List<String> out = List.of(dependent("Deployment", ns, "shop-web", ref("WebApp", "shop", uid, true)),
            dependent("Service", ns, "shop-svc", ref("WebApp", "shop", uid, true)));
        for (String d : out) {
            awaitSync(d, "Synced");
        }
        awaitSync(path("WebApp", ns, "shop"), "Synced");
        show("#/resources/WebApp/" + ns + "/shop");
        await().atMost(SETTLE).until(() -> dependentLinks("#dependents > li").size() == 2);
        return out;
    }

    /** The owner's page after the cascade: the owner gone, its controls disabled, and no resource naming it. */
    private static void awaitTheOwnerGoneWithNoDependentsShown() {
        await().atMost(SETTLE).until(() -> browser.text("#dependents"), t -> t.equals("None."));
        // The owner's DELETED event may reach the page after its dependents' updates: each is rendered as it comes.
        await().atMost(SETTLE).until(() -> browser.text("#gone"), t -> t.equals("This resource no longer exists."));
        assertThat(browser.driver.findElement(By.id("delete")).isEnabled()).isFalse();
    }

    private static void deleteFromThePage(String policy) {
        if (policy != null) {
            browser.driver.findElement(By.id("propagation-" + policy)).click();
        }
        WebElement delete = browser.driver.findElement(By.id("delete"));
        delete.click();
        delete.click();
        await().atMost(SETTLE).until(() -> browser.text("#delete-result"), t -> !t.isEmpty());
        assertThat(browser.text("#delete-result")).startsWith("Deletion requested");
    }

    private static String owner(String ns, String name) {
        return instance.put(path("WebApp", ns, name), Map.of("replicas", 1), Map.of()).path("metadata").path("uid").asText();
    }

    @SafeVarargs
    private static String dependent(String kind, String ns, String name, Map<String, Object>... refs) {
        String path = path(kind, ns, name);
        HttpResponse<String> r = instance.send("PUT", path, Map.of("metadata", Map.of("ownerReferences", List.of(refs)),
            "spec", Map.of("replicas", 1)));
        assertThat(r.statusCode()).as(r.body()).isLessThan(300);
        return path;
    }

    private static Map<String, Object> ref(String kind, String name, String uid, boolean controller) {
        return Map.of("kind", kind, "name", name, "uid", uid, "controller", controller, "blockOwnerDeletion", controller);
    }

    private static String node(String key) {
        return "#dependents li[data-key='" + key + "']";
    }

    /** Each dependent's key, as the page lists them, and the address its link goes to. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> dependentLinks(String css) {
        return (Map<String, String>) browser.driver.executeScript("return Object.fromEntries([...document.querySelectorAll(arguments[0])]"
            + ".map(li => [li.dataset.key, li.querySelector(':scope > a').getAttribute('href')]))", css);
    }

    private static HttpResponse<String> anonymous(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(instance.base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void signIn(String token) {
        browser.await(By.id("token"), SETTLE).sendKeys(token);
        browser.driver.findElement(By.cssSelector("form button[type=submit]")).click();
    }

    private static void show(String hash) {
        browser.driver.executeScript("location.hash = arguments[0]", hash);
    }

    @SuppressWarnings("unchecked")
    private static List<String> eventReasons() {
        return (List<String>) browser.driver.executeScript("return [...document.querySelectorAll('#events li')].map(li => li.dataset.reason)");
    }

    private static String field(String path) {
        return "#fields tr[data-path='" + path + "']";
    }

    private static void editSpec(String from, String to) {
        WebElement editor = browser.await(By.id("spec-editor"), SETTLE);
        String text = editor.getDomProperty("value");
        assertThat(text).contains(from);
        browser.driver.executeScript("arguments[0].value = arguments[1]", editor, text.replace(from, to));
    }

    private static JsonNode awaitSync(String path, String status) {
        return await().atMost(SETTLE).until(() -> instance.get(path), r -> r.path("status").path("syncStatus").asText().equals(status));
    }

    private static Map<String, String> serverRows(String ns) {
        Map<String, String> out = new HashMap<>();
        for (JsonNode o : instance.get("/api/v1/resources?namespace=" + ns).path("items")) {
            out.put(o.path("kind").asText() + "/" + ns + "/" + o.path("metadata").path("name").asText(),
                o.path("metadata").path("resourceVersion").asText());
        }
        return out;
    }

    private static String namespace() {
        return "ui-" + UUID.randomUUID().toString().substring(0, 6);
    }

    private static String path(String kind, String ns, String name) {
        return "/api/v1/resources/" + kind + "/" + ns + "/" + name;
    }
}
