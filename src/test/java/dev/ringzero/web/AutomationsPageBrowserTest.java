package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Browser;
import dev.ringzero.support.Definitions;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.ScriptedModel;
import dev.ringzero.support.Webapps;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The automations page in headless Chromium (Debian's, see {@link Browser}) against the whole
 * platform: sign in, switch an agent off and see the board's event decided {@code disabled}, switch
 * it on and see the run appear, read the "why not", edit a definition, follow a gate to Tasklist
 * and approve it there, and read the page at a phone's width. Each view is saved into {@code docs/images/}.
 */
class AutomationsPageBrowserTest extends OwnerWithDeskBotTest {

    private static Browser browser;

    @Autowired
    ProcessEngine engine;

    @BeforeAll
    static void startBrowser() {
        browser = Browser.start();
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    private WebDriver page() {
        return browser.driver();
    }

    private void signIn(Api owner, String screenshot) {
        browser.windowSize(1280, 1000);
        page().get("http://127.0.0.1:" + port + "/app/");
        ((JavascriptExecutor) page()).executeScript("sessionStorage.clear()");
        page().navigate().refresh();
        WebElement id = browser.await(10, driver -> driver.findElement(By.id("account-id")));
        id.sendKeys(owner.accountId());
        page().findElement(By.id("password")).sendKeys("password-" + owner.accountId());
        if (screenshot != null) {
            browser.screenshot(screenshot);
        }
        page().findElement(By.id("password")).sendKeys(Keys.ENTER);
        browser.await(10, driver -> driver.findElement(By.id("who-name")).getText().contains(owner.accountId()));
    }

    private WebElement agentCard(String agentId) {
        return browser.await(10, driver -> driver.findElement(By.cssSelector("article.agent[data-agent='" + agentId + "']")));
    }

    private void open(WebElement card, String details) {
        WebElement disclosure = card.findElement(By.cssSelector("details." + details));
        if (disclosure.getAttribute("open") == null) {
            disclosure.findElement(By.tagName("summary")).click();
        }
    }

    private void shakeHard(double peakG) {
        // the board's own event, as its shake detector would send it (distinct data: no dedup)
        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", peakG));
    }

    @Test
    void signingInShowsTheGadgetOnlineWithItsQuietHoursAndItsAgent() {
        assertThat(alice.put("/api/v1/gadgets/" + bot.gadgetId() + "/quiet-hours",
                "{\"from\":\"22:00\",\"to\":\"07:00\",\"timeZone\":\"Europe/Berlin\"}").status()).isEqualTo(200);
        String agentId = Agents.create(alice, Definitions.barkWhenShakenHard(bot.gadgetId(), null));

        signIn(alice, "app-sign-in");
        WebElement gadget = browser.await(10, driver -> driver.findElement(
                By.cssSelector("section.gadget[data-gadget='" + bot.gadgetId() + "']")));
        browser.await(10, driver -> gadget.findElement(By.cssSelector(".presence")).getText().startsWith("Online"));
        WebElement toggle = agentCard(agentId).findElement(By.cssSelector("button[role=switch]"));

        assertThat(gadget.findElement(By.cssSelector(".quiet")).getText())
                .isEqualTo("Quiet hours 22:00–07:00 (Europe/Berlin)");
        assertThat(toggle.getAttribute("aria-checked")).isEqualTo("true");
        assertThat(toggle.getAttribute("aria-label")).isEqualTo("Bark when shaken enabled");
        assertThat(agentCard(agentId).findElement(By.cssSelector(".next-eligible")).getText()).startsWith("now");
        browser.screenshot("app-gadgets");
    }

    @Test
    void switchedOffTheBoardsEventIsDecidedDisabledAndSwitchedOnTheRunAppears() {
        String agentId = Agents.create(alice, Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        signIn(alice, null);
        WebElement card = agentCard(agentId);
        WebElement toggle = card.findElement(By.cssSelector("button[role=switch]"));

        // off, with the keyboard: the switch is a button
        toggle.sendKeys(Keys.SPACE);
        browser.await(10, driver -> "false".equals(toggle.getAttribute("aria-checked")));
        assertThat(alice.get("/api/v1/gadget-agents/" + agentId).json().path("enabled").asBoolean()).isFalse();
        shakeHard(2.61);
        open(card, "ledger");
        WebElement disabled = browser.await(20, driver -> card.findElement(
                By.cssSelector(".decision-list li.decision[data-reason='disabled']")));

        assertThat(disabled.getText()).startsWith("disabled — the agent was switched off");
        assertThat(card.findElement(By.cssSelector(".next-eligible")).getText()).isEqualTo("switched off");
        assertThat(card.findElements(By.cssSelector(".run-list li.run"))).isEmpty();
        browser.screenshot("app-why-not");

        toggle.click();
        browser.await(10, driver -> "true".equals(toggle.getAttribute("aria-checked")));
        shakeHard(2.73);
        open(card, "runs");
        WebElement run = browser.await(20, driver -> card.findElement(
                By.cssSelector(".run-list li.run[data-status='succeeded']")));

        assertThat(run.getText()).contains("succeeded", "gadget.event", "speaker.play_url", "accepted");
        assertThat(card.findElement(By.cssSelector(".last-run")).getText()).startsWith("succeeded");
        assertThat(bot.invocations()).hasSize(1);
        browser.screenshot("app-runs");
    }

    @Test
    void theEditorListsValidationErrorsByPathAndDryRunsWithoutTouchingTheBoard() {
        signIn(alice, null);
        WebElement editor = page().findElement(By.id("definition"));
        page().findElement(By.id("template")).click();
        String example = editor.getAttribute("value");
        assertThat(example).contains(bot.gadgetId(), "speaker.play_url");

        setDefinition(example.replace("\"kind\": \"rules\"", "\"kind\": \"rulez\""));
        page().findElement(By.id("dry-run")).click();
        List<WebElement> violations = browser.await(10, driver -> {
            List<WebElement> found = driver.findElements(By.cssSelector("#definition-errors li.violation"));
            return found.isEmpty() ? null : found;
        });
        assertThat(violations).extracting(violation -> violation.getAttribute("data-path")).contains("/kind");
        assertThat(editor.getAttribute("aria-invalid")).isEqualTo("true");

        setDefinition(example);
        page().findElement(By.id("dry-run")).click();
        WebElement report = browser.await(10, driver -> driver.findElement(By.cssSelector("#editor-result .dry-run-actions")));

        assertThat(page().findElement(By.id("editor-result")).getText()).contains("Dry run", "speaker.play_url");
        assertThat(report.getText()).contains("speaker.play_url");
        assertThat(page().findElements(By.cssSelector("#definition-errors li"))).isEmpty();
        assertThat(bot.invocations()).as("a dry run sends nothing").isEmpty();
        browser.screenshot("app-editor");
    }

    @Test
    void describedInWordsTheModelsDraftLandsInTheEditorDryRun() {
        String marker = "draft-" + java.util.UUID.randomUUID();
        ScriptedModel.script(marker).then(ScriptedModel.Reply.answer(
                Definitions.barkWhenShakenHard(bot.gadgetId(), null)));
        signIn(alice, null);

        page().findElement(By.id("description")).sendKeys("When my desk bot is shaken hard, bark " + marker);
        page().findElement(By.id("draft")).click();
        browser.await(20, driver -> driver.findElement(By.id("definition")).getAttribute("value")
                .contains("speaker.play_url"));

        assertThat(page().findElement(By.id("definition")).getAttribute("value")).contains(bot.gadgetId());
        assertThat(browser.await(10, driver -> driver.findElement(By.cssSelector("#editor-result .drafted"))).getText())
                .startsWith("Drafted in 1 attempt");
        assertThat(page().findElement(By.cssSelector("#editor-result .dry-run-actions")).getText())
                .contains("speaker.play_url");
        assertThat(page().findElements(By.cssSelector("#definition-errors li"))).isEmpty();
        assertThat(alice.get("/api/v1/gadget-agents").json()).as("a draft is not saved").isEmpty();
        assertThat(bot.invocations()).isEmpty();
    }

    @Test
    void aPendingGateLinksToItsTasklistForm() {
        String gateId = alice.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"Water the plants\"},\"rationale\":\"a reminder\"}")
                .json().path("id").asText();
        signIn(alice, null);

        WebElement link = browser.await(15, driver -> driver.findElement(
                By.cssSelector("li.gate[data-gate='" + gateId + "'] a.tasklist")));

        assertThat(link.getAttribute("href")).contains("/camunda/app/tasklist/default/#/?task=");
        assertThat(link.getText()).isEqualTo("Review inbox.post in Tasklist");
        assertThat(page().findElement(By.id("approvals-count")).getText()).isEqualTo("(1)");
        browser.screenshot("app-approvals");
    }

    @Test
    void followingAGateToTasklistTheOwnerApprovesItThere() {
        Webapps.usePlatformEngine(engine);
        String gateId = alice.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"Feed the cat\"},\"rationale\":\"a reminder\"}")
                .json().path("id").asText();
        signIn(alice, null);
        WebElement link = browser.await(15, driver -> driver.findElement(
                By.cssSelector("li.gate[data-gate='" + gateId + "'] a.tasklist")));

        try {
            link.click();
            // Tasklist asks for its own login first (the same id and password), then opens the task
            WebElement user = browser.await(30, driver -> driver.findElement(
                    By.cssSelector("form[name=signinForm] input[type=text]")));
            user.sendKeys(alice.accountId());
            page().findElement(By.cssSelector("form[name=signinForm] input[type=password]"))
                    .sendKeys("password-" + alice.accountId());
            page().findElement(By.cssSelector("form[name=signinForm] button[type=submit]")).click();
            List<WebElement> claim = browser.await(30, driver -> {
                if (!driver.findElements(By.xpath("//label[normalize-space()='Approve']")).isEmpty()) {
                    return List.<WebElement>of();
                }
                List<WebElement> found = driver.findElements(By.xpath("//*[self::a or self::button][normalize-space()='Claim']"));
                return found.isEmpty() ? null : found;
            });
            claim.stream().filter(WebElement::isDisplayed).findFirst().ifPresent(WebElement::click);
            // Tasklist scrolls inside its own panes: a tall window shows the whole form
            browser.windowSize(1400, 1900);
            clickInView(browser.await(30, driver -> driver.findElement(By.xpath("//label[normalize-space()='Approve']"))));
            browser.screenshot("tasklist-gate-review");
            clickInView(browser.await(10, driver -> driver.findElement(By.xpath("//button[normalize-space()='Complete']"))));

            browser.await(30, driver -> !"pending".equals(alice.get("/api/v1/gates/" + gateId).json().path("state")
                    .asText()));
        } catch (RuntimeException | AssertionError e) {
            browser.keepEvidence("tasklist-gate-review");
            throw e;
        }
        assertThat(alice.get("/api/v1/gates/" + gateId).json().path("decidedBy").asText()).isEqualTo(alice.accountId());
        page().get("http://127.0.0.1:" + port + "/app/");
        browser.await(15, driver -> driver.findElements(By.cssSelector("li.gate[data-gate='" + gateId + "']")).isEmpty()
                && driver.findElement(By.id("no-gates")).isDisplayed());
    }

    @Test
    void atAPhonesWidthNothingIsWiderThanTheScreen() {
        Agents.create(alice, Definitions.barkWhenShakenHard(bot.gadgetId(), null));
        signIn(alice, null);
        browser.windowSize(390, 844);
        browser.await(10, driver -> driver.findElement(By.cssSelector("article.agent")));

        Number overflow = (Number) ((JavascriptExecutor) page()).executeScript(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth");

        assertThat(overflow.intValue()).as("horizontal overflow in px").isLessThanOrEqualTo(0);
        browser.screenshot("app-phone");
    }

    /**
     * Scrolls to the element and clicks it once nothing covers it: Tasklist lays its form out in
     * steps, and a click in between landed on the form's container (seen in CI). If something
     * still covers it after five seconds of tries (a CI run once saw ten), the click is
     * dispatched to the element itself, and what covered it is logged for the next reader.
     */
    private void clickInView(WebElement element) {
        long since = System.nanoTime();
        String[] covering = {null};
        browser.await(10, driver -> {
            JavascriptExecutor script = (JavascriptExecutor) driver;
            script.executeScript("arguments[0].scrollIntoView({block: 'center'})", element);
            try {
                element.click();
                return Boolean.TRUE;
            } catch (org.openqa.selenium.ElementClickInterceptedException covered) {
                covering[0] = covered.getRawMessage();
                if (System.nanoTime() - since < java.util.concurrent.TimeUnit.SECONDS.toNanos(5)) {
                    return null; // still being laid out: tried again
                }
                System.err.println("clicked by script, the element stayed covered: " + covering[0]);
                script.executeScript("arguments[0].click()", element);
                return Boolean.TRUE;
            }
        });
    }

    private void setDefinition(String text) {
        // typing 600 characters key by key is slow and fights the textarea's auto-indent: set it as a paste would
        ((JavascriptExecutor) page()).executeScript("document.getElementById('definition').value = arguments[0]", text);
    }
}
