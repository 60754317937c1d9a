package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.Arrays;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class DenyReasonTest {

    @ParameterizedTest
    @CsvSource({
        "NOT_FOUND, not_found", "UNPAIRED, unpaired", "OFFLINE, offline",
        "UNREGISTERED_COMMAND, unregistered_command", "NOT_ALLOWED, not_allowed",
        "PHYSICAL_NOT_GRANTED, physical_not_granted", "PRIVILEGED, privileged", "QUIET_HOURS, quiet_hours",
        "AGENT_DISABLED, agent_disabled", "REVISION_STALE, revision_stale", "AGENT_UNKNOWN, agent_unknown",
        "TRUST_DENY, trust_deny", "MOVER_BUSY, mover_busy", "INVALID_PARAMS, invalid_params"})
    void eachReasonHasAStableLowerSnakeWireCode(DenyReason underTest, String wire) {
        assertThat(underTest.wire()).isEqualTo(wire);
        assertThat(DenyReason.fromWire(wire)).isEqualTo(underTest);
    }

    @Test
    void theWireCodesAreListedAboveInFull() {
        assertThat(DenyReason.values()).hasSize(14);
        assertThat(Arrays.stream(DenyReason.values()).map(DenyReason::wire)).doesNotHaveDuplicates();
    }

    @Test
    void anUnknownWireCodeIsRejected() {
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> DenyReason.fromWire("NOT_FOUND"));
    }

    @Test
    void disabledRevisedDeletedAgentsAndUnpairedGadgetsAlwaysFence() {
        EnumSet<DenyReason> fences = EnumSet.noneOf(DenyReason.class);
        for (DenyReason reason : DenyReason.values()) {
            if (reason.isFence()) {
                fences.add(reason);
            }
        }

        assertThat(fences).containsExactlyInAnyOrder(DenyReason.AGENT_DISABLED, DenyReason.REVISION_STALE,
                DenyReason.AGENT_UNKNOWN, DenyReason.UNPAIRED);
    }

    @ParameterizedTest
    @EnumSource(value = DenyReason.class, names = {"NOT_ALLOWED", "PHYSICAL_NOT_GRANTED"})
    void aGrantRevokedAfterTheWorkWasQueuedFences(DenyReason underTest) {
        assertThat(underTest.isFence()).isFalse();
        assertThat(underTest.isFence(true)).isTrue();
        assertThat(underTest.isFence(false)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = DenyReason.class, names = {"NOT_FOUND", "OFFLINE", "UNREGISTERED_COMMAND", "PRIVILEGED",
        "QUIET_HOURS", "TRUST_DENY"})
    void otherRefusalsNeverFence(DenyReason underTest) {
        assertThat(underTest.isFence(true)).isFalse();
    }
}
