package dev.ringzero.agents.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class StateActionsTest {

    private static ObjectNode state(String json) {
        return Fixtures.json(json);
    }

    private static ObjectNode written(StateActions.Applied applied) {
        assertThat(applied).isInstanceOf(StateActions.Written.class);
        return ((StateActions.Written) applied).state();
    }

    @Test
    void incrementCountsAMissingKeyFromZero() {
        ObjectNode after = written(StateActions.apply("state.increment", Map.of("key", "count"), state("{}")));

        assertThat(after.toString()).isEqualTo("{\"count\":1}");
    }

    @Test
    void incrementAddsByToWhatIsThereAndLeavesTheOtherKeys() {
        ObjectNode before = state("{\"count\":41,\"name\":\"rex\"}");

        ObjectNode after = written(StateActions.apply("state.increment", Map.of("key", "count", "by", 2), before));

        assertThat(after.toString()).isEqualTo("{\"count\":43,\"name\":\"rex\"}");
        assertThat(before.get("count").intValue()).as("the input is not changed").isEqualTo(41);
    }

    @Test
    void incrementTakesARenderedNumberAndKeepsFractions() {
        ObjectNode after = written(StateActions.apply("state.increment", Map.of("key", "t", "by", "0.5"),
                state("{\"t\":1}")));

        assertThat(after.get("t").decimalValue()).isEqualByComparingTo("1.5");
    }

    @Test
    void incrementOfSomethingThatIsNotANumberIsRefused() {
        StateActions.Applied applied = StateActions.apply("state.increment", Map.of("key", "name"),
                state("{\"name\":\"rex\"}"));

        assertThat(applied).isEqualTo(new StateActions.Refused("not_a_number", "state.name is string, not a number"));
    }

    @Test
    void incrementBySomethingThatIsNotANumberIsRefused() {
        StateActions.Applied applied = StateActions.apply("state.increment", Map.of("key", "n", "by", "lots"),
                state("{}"));

        assertThat(applied).isInstanceOfSatisfying(StateActions.Refused.class,
                refused -> assertThat(refused.code()).isEqualTo("invalid_params"));
    }

    @Test
    void setReplacesOneKeyWithAnyJsonValue() {
        ObjectNode after = written(StateActions.apply("state.set",
                Map.of("key", "last", "value", Map.of("at", "10:00")), state("{\"last\":1,\"keep\":true}")));

        assertThat(after.toString()).isEqualTo("{\"last\":{\"at\":\"10:00\"},\"keep\":true}");
    }

    @Test
    void mergeSetsEveryKeyOfTheValue() {
        ObjectNode after = written(StateActions.apply("state.merge", Map.of("value", Map.of("a", 1, "b", 2)),
                state("{\"a\":0,\"c\":3}")));

        assertThat(after.get("a").intValue()).isEqualTo(1);
        assertThat(after.get("b").intValue()).isEqualTo(2);
        assertThat(after.get("c").intValue()).isEqualTo(3);
    }

    @Test
    void problemsNameEveryParamThatIsWrong() {
        assertThat(StateActions.problems("state.increment", Fixtures.json("{\"key\":\"a b\",\"by\":\"x\",\"extra\":1}"),
                value -> false))
                .extracting(StateActions.Problem::param, StateActions.Problem::code)
                .containsExactlyInAnyOrder(tuple("key", Violation.PARAM_TYPE), tuple("by", Violation.PARAM_TYPE),
                        tuple("extra", Violation.UNKNOWN_PARAM));
        assertThat(StateActions.problems("state.set", Fixtures.json("{}"), value -> false))
                .extracting(StateActions.Problem::param, StateActions.Problem::code)
                .containsExactlyInAnyOrder(tuple("key", Violation.MISSING_PARAM), tuple("value", Violation.MISSING_PARAM));
        assertThat(StateActions.problems("state.merge", Fixtures.json("{\"value\":[1]}"), value -> false))
                .extracting(StateActions.Problem::param).containsExactly("value");
    }

    @Test
    void aTemplatedByPassesUntilTheRunRendersIt() {
        assertThat(StateActions.problems("state.increment", Fixtures.json("{\"key\":\"n\",\"by\":\"{{event.data.n}}\"}"),
                value -> value.isTextual() && Templates.isTemplate(value.textValue()))).isEmpty();
    }
}
