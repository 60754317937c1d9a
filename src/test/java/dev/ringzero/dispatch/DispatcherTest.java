package dev.ringzero.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** The dispatcher alone: kernel verdict, record, then publish; replay of a recorded invocation. */
class DispatcherTest {

    private final DispatchFixture fixture = new DispatchFixture();
    private final Dispatcher underTest = fixture.dispatcher();

    @AfterEach
    void noTransactionLeftOpen() {
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.clearSynchronization();
        }
    }

    @Test
    void anAllowedCommandIsRecordedThenPublishedUnderItsInvocationIdWithItsDeadline() {
        Dispatcher.Dispatch dispatch = underTest.send(fixture.byOwner(DispatchFixture.DESK, "speaker.say",
                Map.of("text", "hi")), "run", "run-1");

        assertThat(dispatch).isInstanceOf(Dispatcher.Sent.class);
        Dispatcher.Sent sent = (Dispatcher.Sent) dispatch;
        assertThat(sent.deadline()).isEqualTo(fixture.clock.instant().plusMillis(4_000));
        assertThat(fixture.recorded(sent.invocationId())).hasValueSatisfying(invocation -> {
            assertThat(invocation.unanswered()).isTrue();
            assertThat(invocation.gadgetId()).isEqualTo(DispatchFixture.DESK);
            assertThat(invocation.params()).isEqualTo("{\"text\":\"hi\"}");
        });
        assertThat(fixture.published).singleElement().satisfies(published -> {
            assertThat(published.gadgetId()).isEqualTo(DispatchFixture.DESK);
            assertThat(published.envelope().path("method").asText()).isEqualTo("link.invoke");
            assertThat(published.envelope().path("id").asText()).isEqualTo(sent.invocationId());
            assertThat(published.envelope().path("command").asText()).isEqualTo("speaker.say");
            assertThat(published.envelope().path("params").path("text").asText()).isEqualTo("hi");
            assertThat(published.envelope().path("timeout_ms").asLong()).isEqualTo(4_000);
            assertThat(published.envelope().path("deadline").asLong()).isEqualTo(sent.deadline().toEpochMilli());
        });
    }

    @Test
    void aCommandTheKernelRefusesIsNeitherRecordedNorPublished() {
        Dispatcher.Dispatch dispatch = underTest.send(fixture.byOwner(DispatchFixture.DESK, "chassis.drive",
                Map.of()), "run", "run-1", "inv-refused");

        assertThat(dispatch).isInstanceOfSatisfying(Dispatcher.NotSent.class, notSent ->
                assertThat(notSent.outcome()).isInstanceOf(Outcome.Denied.class));
        assertThat(fixture.recorded("inv-refused")).isEmpty();
        assertThat(fixture.published).isEmpty();
    }

    @Test
    void parametersThatDoNotFitTheRegisteredCommandAreRefusedAndNothingLeaves() {
        for (Map<String, Object> params : java.util.List.<Map<String, Object>>of(Map.of(), Map.of("text", 5),
                Map.of("text", "hi", "volume", 3))) {
            Dispatcher.Dispatch dispatch = underTest.send(fixture.byOwner(DispatchFixture.DESK, "display.show",
                    params), "direct", null);

            assertThat(dispatch).as(params.toString()).isInstanceOfSatisfying(Dispatcher.NotSent.class, notSent ->
                    assertThat(((Outcome.Denied) notSent.outcome()).reason()).isEqualTo("invalid_params"));
        }
        assertThat(fixture.published).isEmpty();
        assertThat(underTest.send(fixture.byOwner(DispatchFixture.DESK, "display.show", Map.of("text", "hi")),
                "direct", null)).isInstanceOf(Dispatcher.Sent.class);
    }

    @Test
    void insideATransactionTheCommandLeavesOnlyOnceItCommits() {
        TransactionSynchronizationManager.initSynchronization();
        Dispatcher.Sent sent = (Dispatcher.Sent) underTest.send(fixture.byOwner(DispatchFixture.DESK, "speaker.say",
                Map.of()), "run", "run-1");

        assertThat(fixture.published).as("before the commit").isEmpty();
        complete(TransactionSynchronization.STATUS_COMMITTED);
        assertThat(fixture.published).extracting(p -> p.envelope().path("id").asText())
                .containsExactly(sent.invocationId());
    }

    @Test
    void aRolledBackStepNeverReachesTheDeviceAndFreesItsMoverLease() {
        TransactionSynchronizationManager.initSynchronization();
        underTest.send(fixture.byOwner(DispatchFixture.ROVER, "chassis.drive", Map.of()), "run", "run-1");
        complete(TransactionSynchronization.STATUS_ROLLED_BACK);

        assertThat(fixture.published).isEmpty();
        Dispatcher.Dispatch another = underTest.send(new ActionRequest(new Subject.ApprovedGate(DispatchFixture.OWNER,
                "gate-1"), DispatchFixture.ROVER, "chassis.drive", Map.of(), Priority.APPROVED_GATE,
                fixture.clock.instant()), "gate", null, "gate-1");
        assertThat(another).as("the lease went with the rollback").isInstanceOf(Dispatcher.Sent.class);
    }

    @Test
    void aSecondMoverIsRefusedMoverBusyAndNothingOfItLeaves() {
        underTest.send(fixture.byOwner(DispatchFixture.ROVER, "chassis.drive", Map.of()), "direct", null);

        Dispatcher.Dispatch second = underTest.send(new ActionRequest(new Subject.ApprovedGate(DispatchFixture.OWNER,
                "gate-1"), DispatchFixture.ROVER, "chassis.drive", Map.of(), Priority.APPROVED_GATE,
                fixture.clock.instant()), "gate", null, "gate-1");

        assertThat(second).isInstanceOfSatisfying(Dispatcher.NotSent.class, notSent ->
                assertThat(notSent.outcome()).isEqualTo(new Outcome.Denied("mover_busy",
                        ((Outcome.Denied) notSent.outcome()).detail())));
        assertThat(fixture.recorded("gate-1")).isEmpty();
        assertThat(fixture.published).hasSize(1);
    }

    @Test
    void aReplayPublishesTheSameInvocationAgainWithItsOriginalDeadline() {
        Dispatcher.Sent sent = (Dispatcher.Sent) underTest.send(fixture.byOwner(DispatchFixture.ROVER,
                "chassis.drive", Map.of("cm", 20)), "gate", null, "gate-7");

        boolean replayed = underTest.replay("gate-7", new Subject.ApprovedGate(DispatchFixture.OWNER, "gate-7"),
                Priority.APPROVED_GATE);

        assertThat(replayed).isTrue();
        assertThat(fixture.published).hasSize(2);
        assertThat(fixture.published.get(1).envelope()).isEqualTo(fixture.published.get(0).envelope());
        assertThat(fixture.published.get(1).envelope().path("deadline").asLong())
                .isEqualTo(sent.deadline().toEpochMilli());
    }

    @Test
    void anAnsweredInvocationIsNeverReplayed() {
        underTest.send(fixture.byOwner(DispatchFixture.DESK, "speaker.say", Map.of()), "gate", null, "gate-8");
        underTest.expire("gate-8");

        assertThat(underTest.replay("gate-8", new Subject.ApprovedGate(DispatchFixture.OWNER, "gate-8"),
                Priority.APPROVED_GATE)).isFalse();
        assertThat(fixture.published).hasSize(1);
    }

    @Test
    void aReplayToAGadgetUnpairedMeanwhileSendsNothing() {
        underTest.send(fixture.byOwner(DispatchFixture.DESK, "speaker.say", Map.of()), "gate", null, "gate-9");
        fixture.unpair(DispatchFixture.DESK);

        assertThat(underTest.replay("gate-9", new Subject.ApprovedGate(DispatchFixture.OWNER, "gate-9"),
                Priority.APPROVED_GATE)).isFalse();
        assertThat(fixture.published).hasSize(1);
    }

    @Test
    void anUnansweredCommandExpiresUnknownOnceAndIsNotSentAgain() {
        Dispatcher.Sent sent = (Dispatcher.Sent) underTest.send(fixture.byOwner(DispatchFixture.DESK,
                "speaker.say", Map.of()), "run", "run-1");

        assertThat(underTest.expire(sent.invocationId())).contains(new Outcome.Unknown(sent.invocationId()));
        assertThat(underTest.expire(sent.invocationId())).as("expired once").isEmpty();
        assertThat(underTest.stored(sent.invocationId())).isEqualTo(new Outcome.Unknown(sent.invocationId()));
        assertThat(fixture.published).hasSize(1);
    }

    private static void complete(int status) {
        var synchronizations = TransactionSynchronizationManager.getSynchronizations();
        TransactionSynchronizationManager.clearSynchronization();
        synchronizations.forEach(synchronization -> synchronization.afterCompletion(status));
    }
}
