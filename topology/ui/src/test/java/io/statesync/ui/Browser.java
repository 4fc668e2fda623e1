package io.statesync.ui;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's headless Chromium driven through its chromedriver. Both paths are given explicitly, so Selenium never
 * looks for, or downloads, a browser or a driver.
 */
final class Browser implements AutoCloseable {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

    final ChromeDriver driver;
    private final Path profile;

    Browser() throws IOException {
        profile = Files.createTempDirectory("statesync-ui-chromium");
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--user-data-dir=" + profile, "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    static boolean available() {
        return new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement await(By by, Duration within) {
        return new WebDriverWait(driver, within).until(d -> d.findElements(by).stream().findFirst().orElse(null));
    }

    /**
     * The rows of the resources table: key to the resourceVersion the row shows, in page order. Read in one script,
     * since the live table may be repainted between two WebDriver calls.
     */
    @SuppressWarnings("unchecked")
    Map<String, String> rows() {
        Map<String, String> out = new LinkedHashMap<>();
        List<List<String>> rows = (List<List<String>>) driver.executeScript(
            "return [...document.querySelectorAll('#resources tbody tr')].map(r => [r.dataset.key, r.dataset.rv])");
        for (List<String> r : rows) {
            assertThat(out.put(r.get(0), r.get(1))).as("a second row for " + r.get(0)).isNull();
        }
        return out;
    }

    /**
     * The text of the first element matching a CSS selector (a text area's value), or "" when there is none. Read in
     * one script, since the page may replace the element between two WebDriver calls.
     */
    String text(String selector) {
        Object t = driver.executeScript("const e = document.querySelector(arguments[0]);"
            + "return e ? (e.tagName === 'TEXTAREA' ? e.value : e.innerText) : ''", selector);
        return String.valueOf(t);
    }

    /** An attribute of the first element matching a CSS selector, or "" when there is none; read in one script. */
    String attribute(String selector, String name) {
        Object v = driver.executeScript("const e = document.querySelector(arguments[0]); return e ? e.getAttribute(arguments[1]) || '' : ''",
            selector, name);
        return String.valueOf(v);
    }

    /** Saves what the window shows when a test fails, next to the screenshots. */
    void failed(String test) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve("failed-" + test + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException | RuntimeException e) {
            // A failure report without its picture is still a failure report.
        }
    }

    /** {@link #screenshot} with the element of id {@code elementId} scrolled into view first. */
    Path screenshotAt(String elementId, String name) throws IOException {
        driver.executeScript("document.getElementById(arguments[0]).scrollIntoView()", elementId);
        return screenshot(name);
    }

    /** Saves a PNG of the window under target/ui-screenshots and checks that it holds an image. */
    Path screenshot(String name) throws IOException {
        byte[] png = driver.getScreenshotAs(OutputType.BYTES);
        assertThat(png.length).as("screenshot " + name).isGreaterThan(10_000);
        Files.createDirectories(SCREENSHOTS);
        return Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }
}
