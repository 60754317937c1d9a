package dev.ringzero.agents.runs;

import static dev.ringzero.agents.runs.RunFixtures.AGENT;
import static dev.ringzero.agents.runs.RunFixtures.OWNER;
import static dev.ringzero.agents.runs.RunFixtures.T0;
import static dev.ringzero.agents.runs.RunFixtures.action;
import static dev.ringzero.agents.runs.RunFixtures.insertRun;
import static dev.ringzero.agents.runs.RunFixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.ringzero.support.MovableClock;
import org.junit.jupiter.api.Test;

class RunPreparationTest {

    private final RunStore runs = RunFixtures.store();
    private final RunFixtures.FakeAgents agents = new RunFixtures.FakeAgents().with(AGENT, spec(
            action("speaker.say", Map.of("text", "{{event.data.strength}} shake, {{state.mood}}")),
            action("display.show_text", Map.of("text", "run {{run.id}}"))));
    private final MovableClock clock = new MovableClock(T0.plusSeconds(2));
    private final RunPreparation underTest = new RunPreparation(runs, agents, RunFixtures.JSON, clock);

    private void insert(String runId, RunStatus status) {
        runs.insert(new RunStore.Run(runId, AGENT, OWNER, 1, "gadget.event",
                "{\"event\":{\"name\":\"shaken\",\"data\":{\"strength\":\"hard\"}}}", null, true, status, null, T0,
                status == RunStatus.RUNNING ? T0 : null, null), true);
    }

    @Test
    void aJustAdmittedRunRecordsEachActionRenderedFromItsTriggerStateAndRun() {
        agents.states.put(AGENT, Map.of("mood", "cheerful"));
        insert("r1", RunStatus.RUNNING);

        assertThat(underTest.prepare("r1", true)).isTrue();

        assertThat(runs.actions("r1")).extracting(RunStore.Action::command)
                .containsExactly("speaker.say", "display.show_text");
        assertThat(runs.actions("r1")).extracting(RunStore.Action::params)
                .containsExactly("{\"text\":\"hard shake, cheerful\"}", "{\"text\":\"run r1\"}");
        assertThat(runs.actions("r1")).allSatisfy(action -> {
            assertThat(action.startedAt()).isEqualTo(clock.instant());
            assertThat(action.outcome()).isNull();
        });
    }

    @Test
    void aQueuedRunWhoseTurnCameStartsRunningNow() {
        insert("r1", RunStatus.QUEUED);

        assertThat(underTest.prepare("r1", false)).isTrue();

        RunStore.Run run = runs.find("r1").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(run.startedAt()).isEqualTo(T0.plus(Duration.ofSeconds(2)));
        assertThat(runs.actions("r1")).hasSize(2);
    }

    @Test
    void aRunFencedWhileItWaitedForItsTurnHasNothingToDo() {
        insertRun(runs, "r1", RunStatus.FENCED, T0);

        assertThat(underTest.prepare("r1", false)).isFalse();

        assertThat(runs.actions("r1")).isEmpty();
        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.FENCED);
    }

    @Test
    void aRunningRunThatWasNotJustAdmittedIsNotPreparedAgain() {
        insert("r1", RunStatus.RUNNING);

        assertThat(underTest.prepare("r1", false)).isFalse();

        assertThat(runs.actions("r1")).isEmpty();
    }

    @Test
    void aJustAdmittedRunThatIsNotRunningIsNotPrepared() {
        insert("r1", RunStatus.QUEUED);

        assertThat(underTest.prepare("r1", true)).isFalse();

        assertThat(runs.find("r1").orElseThrow().status()).isEqualTo(RunStatus.QUEUED);
        assertThat(runs.actions("r1")).isEmpty();
    }

    @Test
    void theTemplateContextOfARunWithoutTriggerDataHasEmptyRoots() {
        runs.insert(new RunStore.Run("r1", AGENT, OWNER, 3, "invoke", null, null, false, RunStatus.RUNNING, null, T0,
                T0, null), true);

        Map<String, Object> context = underTest.templateContext(runs.find("r1").orElseThrow());

        assertThat(context).containsEntry("trigger", Map.of()).containsEntry("event", Map.of())
                .containsEntry("state", Map.of())
                .containsEntry("run", Map.of("id", "r1", "revision", 3, "agent", AGENT));
    }
}
