package dev.ringzero.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;

import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Chromium from Debian's packages ({@code chromium}, {@code chromium-driver}), driven by
 * Selenium. Nothing downloads a browser or a driver: both paths are given, so Selenium Manager
 * never runs, and a machine without them fails the test with a message saying how to install them
 * ({@code bin/prerequisites} does). Each browser has a fresh profile, removed when it closes.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Where the tests save what each view looks like; the README shows them. */
    public static final Path SCREENSHOTS = Path.of("docs", "images");

    private final ChromeDriver driver;
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    public static Browser start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("the browser tests need Debian's Chromium and ChromeDriver at " + CHROMIUM
                    + " and " + CHROMEDRIVER + ", and " + (Files.isExecutable(CHROMIUM) ? "" : CHROMIUM + " ")
                    + (Files.isExecutable(CHROMEDRIVER) ? "" : CHROMEDRIVER + " ") + "is missing: run bin/prerequisites "
                    + "(or apt-get install -y chromium chromium-driver). Nothing here downloads a browser.");
        }
        Path profile;
        try {
            profile = Files.createTempDirectory("ringzero-chromium-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // headless as root in a closed network: no sandbox, and none of the background calls home
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000", "--lang=en-GB");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options), profile);
    }

    public WebDriver driver() {
        return driver;
    }

    /** Waits up to {@code seconds} for {@code condition} to give something other than null or false. */
    public <T> T await(int seconds, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, Duration.ofSeconds(seconds), Duration.ofMillis(200)).until(condition);
    }

    public void windowSize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Saves the whole page (not only the window) as {@code docs/images/<name>.png}. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            // the window's height is the page's plus the browser's own frame, so nothing scrolls
            Object needed = driver.executeScript("window.scrollTo(0, 0); return Math.ceil("
                    + "document.documentElement.scrollHeight + window.outerHeight - window.innerHeight)");
            Dimension window = driver.manage().window().getSize();
            int full = Math.min(6000, Math.max(window.getHeight(), ((Number) needed).intValue() + 2));
            driver.manage().window().setSize(new Dimension(window.getWidth(), full));
            Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
            driver.manage().window().setSize(window);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the browser showed when a test failed: its screenshot, page source and console, under target/browser/. */
    public void keepEvidence(String name) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "browser"));
            Files.writeString(dir.resolve(name + ".html"), driver.getCurrentUrl() + "\n" + driver.getPageSource());
            Files.write(dir.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
            StringBuilder console = new StringBuilder();
            driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER)
                    .forEach(entry -> console.append(entry).append('\n'));
            Files.writeString(dir.resolve(name + ".console.txt"), console);
        } catch (IOException | RuntimeException e) {
            // evidence is a courtesy; the test's own failure is what counts
            System.err.println("no browser evidence kept: " + e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // a temp directory left behind is harmless
            }
        }
    }
}
