package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link RunMeter}: per-run ceilings on tool calls, tokens and wall time. */
class RunMeterTest {

    private static final Instant START = Instant.parse("2025-06-02T10:00:00Z");

    private final RunMeter underTest = new RunMeter(new Budget(5, 60, 30, 3, 1000));

    @Test
    void chargesWithinTheCeilingsAreAllowed() {
        assertThat(underTest.charge(1, 400)).isEqualTo(Verdict.ALLOW);
        assertThat(underTest.charge(2, 600)).isEqualTo(Verdict.ALLOW);
        assertThat(underTest.toolCalls()).isEqualTo(3);
        assertThat(underTest.tokens()).isEqualTo(1000);
    }

    @Test
    void oneToolCallTooManyIsOverBudget() {
        underTest.charge(3, 0);

        assertThat(underTest.charge(1, 0)).isEqualTo(new Verdict.OverBudget(Budget.TOOL_CALLS_PER_RUN, null));
    }

    @Test
    void oneTokenTooManyIsOverBudget() {
        underTest.charge(0, 1000);

        assertThat(underTest.charge(0, 1)).isEqualTo(new Verdict.OverBudget(Budget.TOKENS_PER_RUN, null));
    }

    @Test
    void toolCallsAreReportedBeforeTokens() {
        assertThat(underTest.charge(4, 2000)).isEqualTo(new Verdict.OverBudget(Budget.TOOL_CALLS_PER_RUN, null));
    }

    @Test
    void aRunOverBudgetStaysOver() {
        underTest.charge(0, 1001);

        assertThat(underTest.charge(0, 0)).isInstanceOf(Verdict.OverBudget.class);
    }

    @Test
    void aRunWithNoToolBudgetMayCallNoTool() {
        RunMeter rules = new RunMeter(new Budget(5, 60, 30, 0, 0));

        assertThat(rules.charge(0, 0)).isEqualTo(Verdict.ALLOW);
        assertThat(rules.charge(1, 0)).isEqualTo(new Verdict.OverBudget(Budget.TOOL_CALLS_PER_RUN, null));
    }

    @Test
    void aNegativeChargeIsRejected() {
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> underTest.charge(-1, 0));
    }

    @Test
    void theRemainingTimeCountsDownFromMaxRunSecondsToZero() {
        assertThat(underTest.remaining(START, START)).isEqualTo(Duration.ofSeconds(30));
        assertThat(underTest.remaining(START, START.plusSeconds(12))).isEqualTo(Duration.ofSeconds(18));
        assertThat(underTest.remaining(START, START.plusSeconds(30))).isZero();
        assertThat(underTest.remaining(START, START.plusSeconds(45))).isZero();
        assertThat(underTest.deadline(START)).isEqualTo(START.plusSeconds(30));
    }

    @Test
    void theRunIsOverTimeFromItsDeadlineOn() {
        assertThat(underTest.checkTime(START, START.plusMillis(29_999))).isEqualTo(Verdict.ALLOW);
        assertThat(underTest.checkTime(START, START.plusSeconds(30)))
                .isEqualTo(new Verdict.OverBudget(Budget.MAX_RUN_SECONDS, null));
    }
}
