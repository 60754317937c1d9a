package dev.ringzero.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.ringzero.firmware.DeskBot;
import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import dev.ringzero.support.Definitions;
import org.awaitility.Awaitility;

/** What both halves of the fuzz suite check after their cases: the platform still does its work. */
final class StillWorking {

    private StillWorking() {
    }

    /** Up, a valid definition still saves, and a valid event from the board still runs it. */
    static void assertFor(int port, Api owner, DeskBot bot) {
        Response health = Api.at(port).get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("status").asText()).isEqualTo("UP");
        Response created = owner.post("/api/v1/gadget-agents",
                Definitions.showTextWhenShaken(bot.gadgetId(), "{\"runsPerHour\":100}", "parallel"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        long before = bot.invocationCount();
        bot.emitEvent("shaken", Map.of("strength", "hard", "peak_g", 2.2, "after", "fuzz"));
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> bot.invocations().stream()
                .skip(before).anyMatch(invocation -> invocation.command().equals("display.show_text")));
        owner.delete("/api/v1/gadget-agents/" + created.json().path("id").asText());
    }
}
