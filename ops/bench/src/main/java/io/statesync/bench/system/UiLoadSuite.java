package io.statesync.bench.system;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.app.StatesyncApp;
import io.statesync.config.AppConfig;
import io.statesync.topology.TopicNames;
import io.statesync.topology.TopologySerdes;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Suite 7 (on request, {@code --suite ui}): the web UI's first load at {@code resources} resources in Debian's
 * headless Chromium, each run in a fresh profile (nothing cached). It reports the bytes the page fetched (its static
 * files, and the list calls) and the time from navigation to the resources table's first rows, which the page marks
 * itself ({@code performance.mark("statesync-first-rows")}), then what one repaint costs once everything is loaded:
 * sorting all resources by another column and painting the first page ({@code statesync-render}). The baseline, in
 * the same run, is the same list read page by page over HTTP from Java: what any client must wait for before it can
 * show anything.
 */
public final class UiLoadSuite {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MEASURE = "const e = performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'));"
        + "const sum = f => e.filter(f).reduce((a, x) => a + x.encodedBodySize, 0);"
        + "const m = performance.getEntriesByName('statesync-first-rows');"
        + "return m.length ? [m[0].startTime, sum(x => !x.name.includes('/api/')), sum(x => x.name.includes('/api/v1/resources?'))] : null;";

    private static final String REPAINT = "const r = performance.getEntriesByName('statesync-render');"
        + "return location.hash.includes('sort=age') && r.length ? r[r.length - 1].duration : null;";

    private final BenchCluster cluster;
    private final int resources;

    public UiLoadSuite(BenchCluster cluster, int resources) {
        this.cluster = cluster;
        this.resources = resources;
    }

    public String run(int runs, Map<String, Object> overrides) throws Exception {
        if (!new File(CHROMIUM).canExecute() || !new File(CHROMEDRIVER).canExecute()) {
            return "\nui suite skipped: it needs Debian's chromium and chromium-driver (" + CHROMIUM + ", " + CHROMEDRIVER + ")\n";
        }
        AppConfig config = cluster.newRun("ui", overrides);
        SchemaWarmup.statesync(new TopologySerdes(config), new TopicNames(config.topicPrefix()), config.getString(AppConfig.APPLICATION_ID));
        RestSuite.writeQuietPolicy(config);
        Workload.writeResources(config, resources);
        try (StatesyncApp app = new StatesyncApp(config)) {
            app.start();
            String base = "http://127.0.0.1:" + app.httpPort();
            awaitListed(base);
            Table t = new Table(String.format("Web UI first load at %,d resources: fresh Chromium profile per run", resources),
                "run", "static files (bytes)", "list calls (bytes)", "first rows (ms)", "list over HTTP from Java (ms)",
                "first rows / list", "re-sort and repaint (ms)");
            List<double[]> measured = new ArrayList<>();
            for (int r = 0; r <= runs; r++) {
                double listMs = listOverHttp(base);
                double[] page = firstLoad(base);
                String run = r == 0 ? "warm-up (discarded)" : String.valueOf(r);
                t.row(run, page[1], page[2], page[0], listMs, page[0] / listMs, page[3]);
                if (r > 0) {
                    measured.add(new double[] {page[1], page[2], page[0], listMs, page[0] / listMs, page[3]});
                }
            }
            t.row(RestSuite.medians(measured, "**median**"));
            return t.render();
        }
    }

    /** The instance's view holds every resource written. */
    private void awaitListed(String base) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (count(base) < resources) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the view did not reach " + resources + " resources");
            }
            Thread.sleep(500);
        }
    }

    private static int count(String base) throws Exception {
        int n = 0;
        String cont = "";
        do {
            JsonNode page = get(base + "/api/v1/resources?limit=5000" + (cont.isEmpty() ? "" : "&continue=" + cont));
            n += page.path("items").size();
            cont = page.path("metadata").path("continue").asText("");
        } while (!cont.isEmpty() && !cont.equals("null"));
        return n;
    }

    private static double listOverHttp(String base) throws Exception {
        long start = System.nanoTime();
        count(base);
        return (System.nanoTime() - start) / 1e6;
    }

    private static JsonNode get(String url) throws Exception {
        HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        return JSON.readTree(r.body());
    }

    /** {first rows ms, static bytes, list bytes, repaint ms} of one load in a browser that has never seen the page. */
    private static double[] firstLoad(String base) throws Exception {
        Path profile = Files.createTempDirectory("statesync-ui-bench");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--user-data-dir=" + profile, "--window-size=1280,1000");
        ChromeDriver driver = new ChromeDriver(new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build(), options);
        try {
            driver.get(base + "/#/resources");
            @SuppressWarnings("unchecked")
            List<Number> m = new WebDriverWait(driver, Duration.ofMinutes(2)).until(d -> (List<Number>) driver.executeScript(MEASURE));
            driver.executeScript("performance.clearMeasures('statesync-render'); location.hash = '#/resources?sort=age:desc'");
            Number repaint = new WebDriverWait(driver, Duration.ofMinutes(1)).until(d -> (Number) driver.executeScript(REPAINT));
            return new double[] {m.get(0).doubleValue(), m.get(1).doubleValue(), m.get(2).doubleValue(), repaint.doubleValue()};
        } finally {
            driver.quit();
        }
    }
}
