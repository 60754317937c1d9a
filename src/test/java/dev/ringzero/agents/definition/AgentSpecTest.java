package dev.ringzero.agents.definition;

import static dev.ringzero.agents.definition.Fixtures.BARK;
import static dev.ringzero.agents.definition.Fixtures.GOOD_MORNING;
import static dev.ringzero.agents.definition.Fixtures.LLM;
import static dev.ringzero.agents.definition.Fixtures.WEEKDAY_SCHEDULE;
import static dev.ringzero.agents.definition.Fixtures.edit;
import static dev.ringzero.agents.definition.Fixtures.json;
import static dev.ringzero.agents.definition.Fixtures.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.agents.definition.AgentSpec.Allow;
import dev.ringzero.agents.definition.AgentSpec.Budget;
import dev.ringzero.agents.definition.AgentSpec.Concurrency;
import dev.ringzero.agents.definition.Trigger.GadgetEventTrigger;
import dev.ringzero.agents.definition.Trigger.When;
import java.time.DayOfWeek;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AgentSpecTest {

    private static final String MINIMAL = """
            {"apiVersion": "ringzero/v1", "name": "Minimal", "gadgets": ["desk-1"], "kind": "rules",
             "triggers": [{"kind": "invoke"}],
             "actions": [{"gadget": "desk-1", "command": "speaker.say", "params": {"text": "hi"}}],
             "allow": {}}
            """;

    @Test
    void fillsDefaults() {
        AgentSpec spec = AgentSpec.from(json(MINIMAL));

        assertThat(spec.description()).isEmpty();
        assertThat(spec.instructions()).isEmpty();
        assertThat(spec.allow()).isEqualTo(Allow.NONE);
        assertThat(spec.budget()).isEqualTo(new Budget(60, 0, 30, 8, 4000));
        assertThat(spec.concurrency()).isEqualTo(Concurrency.SINGLE);
        assertThat(spec.maxParallel()).isEqualTo(1);
        assertThat(spec.enabled()).isTrue();
        assertThat(spec.state().isEmpty()).isTrue();
        assertThat(spec.wakeOnResolve()).isFalse();
    }

    @Test
    void fillsMissingBudgetFieldsOneByOne() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(d, "/budget", "{\"runsPerHour\": 5}")));

        assertThat(spec.budget()).isEqualTo(new Budget(5, 0, 30, 8, 4000));
    }

    @Test
    void eventTriggerWithoutFilterAdmitsEverything() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(d, "/triggers/0",
                "{\"kind\": \"gadget.event\", \"gadget\": \"desk-1\", \"event\": \"shaken\"}")));

        assertThat(spec.triggers().get(0)).isEqualTo(new GadgetEventTrigger("desk-1", "shaken", When.ANY));
    }

    @Test
    void scheduleWithoutTimeZoneRunsInUtc() {
        AgentSpec spec = AgentSpec.from(edit(WEEKDAY_SCHEDULE, d -> {
            ((ObjectNode) d.at("/triggers/0")).remove("timeZone");
            return d;
        }));

        assertThat(spec.triggers().get(0)).isEqualTo(new Trigger.ScheduleTrigger("0 8 * * 1-5", "UTC"));
    }

    @Test
    void parallelWithoutMaxParallelGetsTheDefault() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(d, "/concurrency", "\"parallel\"")));

        assertThat(spec.maxParallel()).isEqualTo(AgentSpec.DEFAULT_MAX_PARALLEL);
    }

    @Test
    void maxParallelIsIgnoredUnlessParallel() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(set(d, "/concurrency", "\"queued\""), "/maxParallel", "8")));

        assertThat(spec.maxParallel()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {BARK, GOOD_MORNING, WEEKDAY_SCHEDULE, LLM, MINIMAL})
    void toJsonRoundTripsAndPassesTheSchema(String definition) {
        AgentSpec spec = AgentSpec.from(json(definition));

        ObjectNode written = spec.toJson();

        assertThat(AgentSpec.from(written)).isEqualTo(spec);
        assertThat(AgentSchema.validate(written)).isEmpty();
    }

    @Test
    void onGateRoundTripsAndChoosesAContinuationsActionsByTheGatesOutcome() {
        AgentSpec spec = AgentSpec.from(edit(BARK, d -> set(d, "/onGate", """
                {"approved": [{"gadget": "desk-1", "command": "speaker.play_url", "params": {"url": "https://example.org/yes.mp3"}}],
                 "denied": [{"do": "state.set", "params": {"key": "refused", "value": true}}]}
                """)));

        ObjectNode written = spec.toJson();
        assertThat(AgentSpec.from(written)).isEqualTo(spec);
        assertThat(AgentSchema.validate(written)).isEmpty();
        assertThat(spec.actionsFor(java.util.Map.of("kind", "continuation", "gate", java.util.Map.of("state", "failed"))))
                .isEqualTo(spec.onGate().approved());
        assertThat(spec.actionsFor(java.util.Map.of("kind", "continuation", "gate", java.util.Map.of("state", "denied"))))
                .isEqualTo(spec.onGate().denied());
        assertThat(spec.actionsFor(java.util.Map.of("kind", "continuation", "gate", java.util.Map.of("state", "expired"))))
                .isEmpty();
        assertThat(spec.actionsFor(java.util.Map.of("kind", "gadget.event"))).isEqualTo(spec.actions());
        assertThat(spec.wakesOn("executed")).isTrue();
        assertThat(spec.wakesOn("denied")).isTrue();
        assertThat(spec.wakesOn("expired")).isFalse();
        assertThat(spec.wakesOn("fenced")).isFalse();
        assertThat(AgentSpec.firstStateWrite(spec.actionsFor(java.util.Map.of("kind", "continuation", "gate", java.util.Map.of("state", "denied")))))
                .isZero();
    }

    @Test
    void toJsonSpellsOutTheDefaults() {
        ObjectNode written = AgentSpec.from(json(MINIMAL)).toJson();

        assertThat(written.at("/budget/runsPerHour").intValue()).isEqualTo(60);
        assertThat(written.at("/concurrency").textValue()).isEqualTo("single");
        assertThat(written.at("/enabled").booleanValue()).isTrue();
        assertThat(written.at("/allow/physical").booleanValue()).isFalse();
        assertThat(written.has("maxParallel")).isFalse();
    }

    @Test
    void stateCannotBeChangedThroughTheSpec() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(d, "/state", "{\"count\": 1}")));

        spec.state().put("count", 99);

        assertThat(spec.state().get("count").intValue()).isEqualTo(1);
    }

    @Test
    void paramsAreDeeplyUnmodifiable() {
        AgentSpec spec = AgentSpec.from(edit(MINIMAL, d -> set(d, "/actions/0/params/style", "{\"lines\": [1]}")));

        assertThatExceptionOfType(UnsupportedOperationException.class)
                .isThrownBy(() -> spec.actions().get(0).params().put("text", "changed"));
        @SuppressWarnings("unchecked")
        var style = (java.util.Map<String, Object>) spec.actions().get(0).params().get("style");
        assertThatExceptionOfType(UnsupportedOperationException.class)
                .isThrownBy(() -> ((java.util.List<Object>) style.get("lines")).add(2));
    }

    @Test
    void refusesAnotherApiVersion() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> AgentSpec.from(edit(MINIMAL, d -> set(d, "/apiVersion", "\"ringzero/v2\""))));
    }

    @Test
    void whenAdmitsOnlyItsHoursAndDaysInItsZone() {
        When mornings = new When(6, 10, Set.of(DayOfWeek.MONDAY), "Europe/Berlin", null);

        // 2025-06-02 is a Monday; Berlin is UTC+2 in summer.
        assertThat(mornings.admitsTime(Instant.parse("2025-06-02T04:00:00Z"))).isTrue();
        assertThat(mornings.admitsTime(Instant.parse("2025-06-02T07:59:59Z"))).isTrue();
        assertThat(mornings.admitsTime(Instant.parse("2025-06-02T08:00:00Z"))).isFalse();
        assertThat(mornings.admitsTime(Instant.parse("2025-06-02T03:59:59Z"))).isFalse();
        assertThat(mornings.admitsTime(Instant.parse("2025-06-03T05:00:00Z"))).isFalse();
        assertThat(When.ANY.admitsTime(Instant.parse("2025-06-03T05:00:00Z"))).isTrue();
    }

    @Test
    void whenParsesDaysAndData() {
        AgentSpec spec = AgentSpec.from(edit(GOOD_MORNING, d -> set(set(d,
                "/triggers/0/when/days", "[\"sat\", \"sun\"]"),
                "/triggers/0/when/data", "{\"orientation\": \"upright\", \"g\": 1.5, \"hard\": true}")));

        When when = ((GadgetEventTrigger) spec.triggers().get(0)).when();
        assertThat(when.days()).containsExactlyInAnyOrder(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
        assertThat(when.data()).containsEntry("orientation", "upright").containsEntry("g", 1.5).containsEntry("hard", true);
    }
}
