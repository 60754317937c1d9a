package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class VerdictTest {

    @Test
    void eachVerdictHasAWireName() {
        assertThat(Verdict.ALLOW.wire()).isEqualTo("allow");
        assertThat(new Verdict.Deny(DenyReason.OFFLINE, "x").wire()).isEqualTo("deny");
        assertThat(new Verdict.Gate(null).wire()).isEqualTo("gate");
        assertThat(new Verdict.OverBudget(Budget.RUNS_PER_HOUR, Instant.EPOCH).wire()).isEqualTo("over_budget");
    }

    @Test
    void onlyAllowLetsTheActionGoAhead() {
        assertThat(Verdict.ALLOW.allowed()).isTrue();
        assertThat(new Verdict.Gate("r").allowed()).isFalse();
        assertThat(new Verdict.Deny(DenyReason.OFFLINE, null).allowed()).isFalse();
        assertThat(new Verdict.OverBudget(Budget.TOKENS_PER_RUN, null).allowed()).isFalse();
    }

    @Test
    void aGateFromTheDefaultNamesNoRule() {
        assertThat(new Verdict.Gate(null).rule()).isEmpty();
        assertThat(new Verdict.Gate("r-1").rule()).contains("r-1");
    }

    @Test
    void aDenyWithoutDetailCarriesAnEmptyDetail() {
        assertThat(new Verdict.Deny(DenyReason.OFFLINE, null).detail()).isEmpty();
    }
}
