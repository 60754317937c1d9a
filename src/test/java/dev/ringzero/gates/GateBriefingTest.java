package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

class GateBriefingTest {

    private final DeskFixture desk = new DeskFixture();
    private final GateBriefing underTest = new GateBriefing(desk.store);

    @Test
    void aNewRunHearsOfOpenGatesAndOfThoseThatEndedSinceItsLastRun() {
        Gate pending = desk.stored(GateState.PENDING);
        Gate executed = desk.stored(GateState.EXECUTING);
        desk.store.transition(executed.id(), GateState.EXECUTING, GateState.EXECUTED, "{}", DeskFixture.NOW);
        Gate endedBefore = desk.stored(GateState.EXECUTING);
        desk.store.transition(endedBefore.id(), GateState.EXECUTING, GateState.FAILED, "{}",
                DeskFixture.NOW.minusSeconds(3600));

        assertThat(underTest.of(desk.agent, DeskFixture.NOW.minusSeconds(60))).extracting(Gate::id)
                .containsExactlyInAnyOrder(pending.id(), executed.id());
    }

    @Test
    void anAgentThatNeverRanHearsOfEveryGateItHad() {
        Gate endedLongAgo = desk.stored(GateState.EXECUTING);
        desk.store.transition(endedLongAgo.id(), GateState.EXECUTING, GateState.FAILED, "{}",
                Instant.parse("2001-01-01T00:00:00Z"));

        assertThat(underTest.of(desk.agent, null)).extracting(Gate::id).containsExactly(endedLongAgo.id());
    }

    @Test
    void theRunsContextGetsEachGateAsAPlainMap() {
        Gate pending = desk.stored(GateState.PENDING);
        desk.store.decide(pending.id(), GateState.DENIED, "alice", "not now", DeskFixture.NOW);

        Map<String, Object> view = underTest.asMaps(desk.agent, DeskFixture.NOW.minusSeconds(1)).get(0);

        assertThat(view.keySet()).containsExactly("id", "intent", "state", "filedAt", "decidedBy", "note", "result");
        assertThat(view).containsEntry("id", pending.id()).containsEntry("intent", "inbox.post")
                .containsEntry("state", "denied").containsEntry("filedAt", "2026-03-01T09:00:00Z")
                .containsEntry("decidedBy", "alice").containsEntry("note", "not now").containsEntry("result", null);
    }
}
