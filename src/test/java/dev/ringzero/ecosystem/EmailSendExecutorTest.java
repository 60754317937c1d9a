package dev.ringzero.ecosystem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Instant;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.gates.Attempts;
import dev.ringzero.gates.Execution;
import dev.ringzero.gates.Gate;
import dev.ringzero.gates.GateState;
import dev.ringzero.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.mail.javamail.JavaMailSender;

/** email.send without a mail server configured, and the payload checks made before anything is frozen. */
class EmailSendExecutorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Attempts attempts = mock(Attempts.class);
    private final EmailSendExecutor underTest = new EmailSendExecutor(
            new StaticListableBeanFactory().getBeanProvider(JavaMailSender.class), attempts, JSON,
            "ringzero@localhost", "ringzero.local");

    private static Gate gate(String payload) {
        Instant now = Instant.now();
        return new Gate("g-1", GateState.EXECUTING,
                new Gate.Proposal("alice", "agent-1", "run-1", "email.send", null, payload, "sha", "digest"),
                new Gate.Decision(null, false, "alice", null), new Gate.Timeline(now, now, now, null), null, null);
    }

    @Test
    void withoutSpringMailHostTheGateFailsClearlyAndNothingIsAttempted() {
        when(attempts.reconcile(any())).thenReturn(new Execution.NotStarted());

        Execution execution = underTest.execute(gate("{\"to\":[\"a@b.example\"],\"subject\":\"s\",\"body\":\"b\"}"));

        assertThat(execution).isInstanceOf(Execution.Failed.class);
        assertThat(((Execution.Failed) execution).result()).contains("email_not_configured", "spring.mail.host");
        verify(attempts, never()).external(any(), any(), any(), any());
    }

    @Test
    void aRecipientStringHidingSeveralAddressesOrAHeaderInjectionIsRefused() throws Exception {
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.validate("alice", "email.send",
                JSON.readTree("{\"to\":[\"a@ourco.example, eve@evil.example\"],\"subject\":\"s\",\"body\":\"b\"}")));
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.validate("alice", "email.send",
                JSON.readTree("{\"to\":[\"Ann <a@ourco.example>\"],\"subject\":\"s\",\"body\":\"b\"}")));
        assertThatExceptionOfType(Refusal.class).isThrownBy(() -> underTest.validate("alice", "email.send",
                JSON.readTree("{\"to\":[\"a@ourco.example\"],\"subject\":\"s\\r\\nBcc: eve@evil.example\",\"body\":\"b\"}")));
        underTest.validate("alice", "email.send",
                JSON.readTree("{\"to\":[\"a@ourco.example\"],\"subject\":\"s\",\"body\":\"b\"}"));
    }
}
