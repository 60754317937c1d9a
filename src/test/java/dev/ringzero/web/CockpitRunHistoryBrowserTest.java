package dev.ringzero.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Browser;
import dev.ringzero.support.OwnerWithDeskBotTest;
import dev.ringzero.support.Webapps;
import org.awaitility.Awaitility;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An analyst logs in to Cockpit and finds a finished run of another owner in the "Run history"
 * view RingZero adds (a Cockpit frontend plugin over {@code /api/v1/analyst/runs}, called with
 * Cockpit's own login), with its outcome and, on demand, its actions; then the ended gate of that
 * owner in the same view. Saves both into {@code docs/images/cockpit-run-history.png} and
 * {@code cockpit-gate-history.png}.
 */
class CockpitRunHistoryBrowserTest extends OwnerWithDeskBotTest {

    @Autowired
    ProcessEngine engine;

    @BeforeEach
    void cockpitUsesThePlatformsEngine() {
        Webapps.usePlatformEngine(engine);
    }

    @Test
    void anAnalystFindsTheFinishedRunInCockpitsRunHistory() {
        String analyst = "analyst-" + UUID.randomUUID().toString().substring(0, 8);
        String password = "password-" + analyst;
        Api.Response created = Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + analyst + "\",\"password\":\"" + password + "\",\"role\":\"analyst\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String agentId = Agents.create(alice, Agents.sound(bot.gadgetId(), "chime", 100, "queued"));
        String runId = Agents.runNow(alice, agentId);
        String gateId = alice.post("/api/v1/gates",
                "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"Call the vet\"},\"rationale\":\"a reminder\"}")
                .json().path("id").asText();
        assertThat(alice.post("/api/v1/gates/" + gateId + "/deny", "{\"note\":\"done already\"}").status())
                .isEqualTo(200);
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Agents.run(alice, runId).hasNonNull("endedAt"));

        try (Browser browser = Browser.start()) {
            try {
                findTheRun(browser, analyst, password, agentId, runId);
                findTheGate(browser, gateId);
            } catch (RuntimeException | AssertionError e) {
                browser.keepEvidence("cockpit-run-history");
                throw e;
            }
        }
    }

    private void findTheRun(Browser browser, String analyst, String password, String agentId, String runId) {
        browser.driver().get("http://127.0.0.1:" + port + "/camunda/app/cockpit/default/");
        WebElement user = browser.await(30, driver -> driver.findElement(
                By.cssSelector("form[name=signinForm] input[type=text]")));
        user.sendKeys(analyst);
        browser.driver().findElement(By.cssSelector("form[name=signinForm] input[type=password]")).sendKeys(password);
        browser.driver().findElement(By.cssSelector("form[name=signinForm] button[type=submit]")).click();

        browser.await(30, driver -> driver.findElement(By.cssSelector("a[href='#/ringzero-run-history']"))).click();
        WebElement row = browser.await(30, driver -> driver.findElement(
                By.cssSelector("tr.rz-run[data-run='" + runId + "']")));

        assertThat(row.getText()).contains(alice.accountId(), "chime", "rules", "succeeded", "invoke");
        // filtered by a status it did not end with, it is gone; by its agent, it is back
        new Select(browser.driver().findElement(By.id("rz-status"))).selectByValue("failed");
        browser.driver().findElement(By.id("rz-agent")).sendKeys(agentId);
        browser.driver().findElement(By.cssSelector(".rz-filters button[type=submit]")).click();
        browser.await(15, driver -> driver.findElement(By.cssSelector(".rz-empty")).isDisplayed());
        assertThat(browser.driver().findElements(By.cssSelector("tr.rz-run"))).isEmpty();
        new Select(browser.driver().findElement(By.id("rz-status"))).selectByValue("");
        browser.driver().findElement(By.cssSelector(".rz-filters button[type=submit]")).click();
        row = browser.await(15, driver -> driver.findElement(By.cssSelector("tr.rz-run[data-run='" + runId + "']")));
        assertThat(browser.driver().findElements(By.cssSelector("tr.rz-run"))).hasSize(1);
        row.findElement(By.cssSelector("button[aria-expanded]")).click();
        WebElement actions = browser.await(15, driver -> driver.findElement(By.cssSelector("tr.rz-details .rz-actions")));
        assertThat(actions.getText()).contains("speaker.play_url", bot.gadgetId());
        browser.screenshot("cockpit-run-history");
    }

    private void findTheGate(Browser browser, String gateId) {
        browser.driver().findElement(By.id("rz-agent")).clear();
        new Select(browser.driver().findElement(By.id("rz-what"))).selectByValue("gates");
        WebElement row = browser.await(15, driver -> driver.findElement(
                By.cssSelector("tr.rz-gate[data-gate='" + gateId + "']")));

        assertThat(row.getText()).contains("inbox.post", "denied", "direct");
        assertThat(row.findElements(By.tagName("td")).get(1).getText()).as("owner").isEqualTo(alice.accountId());
        row.findElement(By.cssSelector("button[aria-expanded]")).click();
        WebElement payload = browser.await(10, driver -> {
            WebElement found = driver.findElement(By.cssSelector("tr.rz-details .rz-payload"));
            return found.isDisplayed() ? found : null;
        });
        assertThat(payload.getText()).contains("Call the vet");
        assertThat(browser.driver().findElement(By.cssSelector(".ringzero-run-history")).getText())
                .contains("done already");
        browser.screenshot("cockpit-gate-history");
    }
}
