package dev.ringzero.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.support.Api.Response;

/** Small REST helpers around agents and their runs, for readable end-to-end tests. */
public final class Agents {

    private Agents() {
    }

    public static String create(Api owner, String definition) {
        Response created = owner.post("/api/v1/gadget-agents", definition);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("id").asText();
    }

    public static List<JsonNode> runs(Api owner, String agentId) {
        return owner.get("/api/v1/gadget-agents/" + agentId + "/runs").json().findParents("status");
    }

    public static List<String> statuses(Api owner, String agentId) {
        return runs(owner, agentId).stream().map(run -> run.path("status").asText()).toList();
    }

    public static List<String> decisions(Api owner, String agentId) {
        return owner.get("/api/v1/gadget-agents/" + agentId + "/decisions").json().findValuesAsText("reason");
    }

    public static String runNow(Api owner, String agentId) {
        Response started = owner.post("/api/v1/gadget-agents/" + agentId + "/runs", "{}");
        assertThat(started.status()).as(started.body()).isEqualTo(202);
        return started.json().path("runId").asText();
    }

    public static JsonNode run(Api owner, String runId) {
        return owner.get("/api/v1/runs/" + runId).json();
    }

    /** An agent that plays one sound (speaker.play_url of the given length) when run explicitly. */
    public static String sound(String gadget, String name, int durationMs, String concurrency) {
        return """
                {"apiVersion":"ringzero/v1","name":"%2$s","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"},{"kind":"gadget.event","gadget":"%1$s","event":"shaken"}],
                 "actions":[{"gadget":"%1$s","command":"speaker.play_url",
                             "params":{"url":"https://example.org/%2$s.mp3","duration_ms":%3$d}}],
                 "allow":{"commands":["speaker.play_url"]},"budget":{"runsPerHour":100},
                 "concurrency":"%4$s","maxParallel":8}
                """.formatted(gadget, name, durationMs, concurrency);
    }

    /**
     * Reads the accelerometer (answered at once, 2 s timeout) on "run it now". With the bot silent a
     * run stays active until that timeout: how tests hold a run open without racing it.
     */
    public static String imuRead(String gadget, String name, String concurrency) {
        return """
                {"apiVersion":"ringzero/v1","name":"%2$s","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"imu.read","params":{}}],
                 "allow":{"commands":["imu.read"]},"budget":{"runsPerHour":100},
                 "concurrency":"%3$s","maxParallel":8}
                """.formatted(gadget, name, concurrency);
    }

    /**
     * Two reads of the gadget's IMU, so the run's process waits in the engine for the first answer
     * (a rules run's last command ends its instance as it leaves: docs/architecture.md, "The
     * detached last command"). For tests that need a run to be seen while it waits.
     */
    public static String imuReadTwice(String gadget, String name, String concurrency) {
        return """
                {"apiVersion":"ringzero/v1","name":"%2$s","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"imu.read","params":{}},
                            {"gadget":"%1$s","command":"imu.read","params":{}}],
                 "allow":{"commands":["imu.read"]},"budget":{"runsPerHour":100},
                 "concurrency":"%3$s","maxParallel":8}
                """.formatted(gadget, name, concurrency);
    }
}
