package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.Subject;
import org.junit.jupiter.api.Test;

class MoversTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration MOVE = Duration.ofSeconds(3);
    private final Movers movers = new Movers();

    private final Subject patrolRun1 = new Subject.AgentRun("alice", "patrol", 1, "run-1");
    private final Subject patrolRun2 = new Subject.AgentRun("alice", "patrol", 1, "run-2");
    private final Subject follower = new Subject.AgentRun("alice", "follower", 1, "run-3");
    private final Subject person = new Subject.Owner("alice");
    private final Subject gate = new Subject.ApprovedGate("alice", "gate-1");

    @Test
    void oneMoverAtATimeWhoeverElseAsks() {
        assertThat(movers.take(patrolRun1, "rover", MOVE, T0)).isInstanceOf(Lease.Granted.class);
        movers.moving("inv-1", patrolRun1, "rover");

        assertThat(movers.take(follower, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take(person, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take(gate, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take(follower, "another rover", MOVE, T0)).isInstanceOf(Lease.Granted.class);
    }

    @Test
    void theMoverIsTheAgentNotItsRun() {
        movers.take(patrolRun1, "rover", MOVE, T0);

        assertThat(movers.take(patrolRun2, "rover", MOVE, T0.plusSeconds(1))).isInstanceOf(Lease.Granted.class);
    }

    @Test
    void theGadgetIsFreeOnceTheMoveEndsOrAStopIsSentOrTheBoundPasses() {
        movers.take(patrolRun1, "rover", MOVE, T0);
        movers.moving("inv-1", patrolRun1, "rover");
        movers.ended("inv-1");
        assertThat(movers.take(follower, "rover", MOVE, T0)).as("answered").isInstanceOf(Lease.Granted.class);

        movers.stopping("rover", T0);
        assertThat(movers.take(person, "rover", MOVE, T0)).as("stopped").isInstanceOf(Lease.Granted.class);

        movers.stopping("rover", T0);
        assertThat(movers.take(gate, "rover", Duration.ofMinutes(5), T0)).as("cut to the bound (10 s)")
                .isInstanceOf(Lease.Granted.class);
        assertThat(movers.take(person, "rover", MOVE, T0.plusSeconds(9))).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take(person, "rover", MOVE, T0.plusSeconds(10))).as("the bound")
                .isInstanceOf(Lease.Granted.class);
    }

    @Test
    void anEndedInvocationThatWasNoMoveOrAnotherMoversLeavesTheLeaseAlone() {
        movers.take(patrolRun1, "rover", MOVE, T0);
        movers.moving("inv-1", patrolRun1, "rover");
        movers.ended("some sound");
        movers.ended("inv-1");
        movers.take(follower, "rover", MOVE, T0);
        movers.ended("inv-1"); // told twice (answered, then expired): the follower's lease stays

        assertThat(movers.take(person, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
    }
}
