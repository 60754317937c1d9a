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

    private boolean free(String gadgetId, Instant at) {
        // asks as a mover nobody else is, and gives the gadget straight back
        boolean granted = movers.take("probe", new Subject.Owner("probe"), gadgetId, MOVE, at) instanceof Lease.Granted;
        movers.ended("probe", at);
        return granted;
    }

    @Test
    void oneMoverAtATimeWhoeverElseAsks() {
        assertThat(movers.take("inv-1", patrolRun1, "rover", MOVE, T0)).isInstanceOf(Lease.Granted.class);

        assertThat(movers.take("inv-2", follower, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take("inv-3", person, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take("inv-4", gate, "rover", MOVE, T0)).isInstanceOf(Lease.Busy.class);
        assertThat(movers.take("inv-5", follower, "another rover", MOVE, T0)).isInstanceOf(Lease.Granted.class);
        movers.ended("inv-2", T0); // a refused move was never on its way: the holder keeps the gadget
        assertThat(free("rover", T0)).isFalse();

        movers.ended("inv-1", T0);
        movers.take("inv-6", follower, "rover", MOVE, T0);
        movers.ended("inv-6", T0);
        assertThat(free("rover", T0)).as("the follower's refused inv-2 never counted as its move").isTrue();
    }

    @Test
    void theMoverIsTheAgentNotItsRunAndItsLeaseEndsWithItsLastMove() {
        movers.take("inv-1", patrolRun1, "rover", MOVE, T0);
        assertThat(movers.take("inv-2", patrolRun2, "rover", MOVE, T0.plusSeconds(1))).isInstanceOf(Lease.Granted.class);

        movers.ended("inv-2", T0.plusSeconds(1)); // the renewal answered first (say the rover said busy)
        assertThat(free("rover", T0.plusSeconds(1))).as("the first move is still on its way").isFalse();
        movers.ended("inv-1", T0.plusSeconds(2));
        assertThat(free("rover", T0.plusSeconds(2))).isTrue();
    }

    @Test
    void aStopFreesTheGadgetAndTheBoundEndsEveryLease() {
        movers.take("inv-1", patrolRun1, "rover", MOVE, T0);
        movers.stopping("rover", T0);
        assertThat(free("rover", T0)).isTrue();
        movers.take("inv-2", patrolRun2, "rover", MOVE, T0); // the stopped move is no longer on its way
        movers.ended("inv-2", T0);
        assertThat(free("rover", T0)).isTrue();

        assertThat(movers.take("inv-3", gate, "rover", Duration.ofMinutes(5), T0)).as("cut to the bound (10 s)")
                .isInstanceOf(Lease.Granted.class);
        assertThat(free("rover", T0.plusSeconds(9))).isFalse();
        assertThat(free("rover", T0.plusSeconds(10))).isTrue();
    }

    @Test
    void aMoveGivenUpOnHoldsTheGadgetUntilItsLeaseLapsesAndNoLonger() {
        movers.take("inv-1", patrolRun1, "rover", Duration.ofSeconds(8), T0);
        // its run gave up at 5 s (nothing ends it): the rover may still be driving
        assertThat(free("rover", T0.plusSeconds(5))).isFalse();

        // the same agent moves again for longer; once the first move's own lease has lapsed, the
        // second's answer frees the gadget: the move given up on holds nothing any more
        movers.take("inv-2", patrolRun2, "rover", Duration.ofSeconds(9), T0.plusSeconds(6));
        movers.ended("inv-2", T0.plusSeconds(9));
        assertThat(free("rover", T0.plusSeconds(9))).isTrue();
    }

    @Test
    void theEndOfAMoveThatIsNotOnItsWayAnyMoreLeavesTheNextMoversLeaseAlone() {
        movers.take("inv-1", patrolRun1, "rover", MOVE, T0);
        movers.ended("some sound", T0);
        movers.ended("inv-1", T0);
        movers.take("inv-2", patrolRun1, "rover", MOVE, T0);
        movers.ended("inv-1", T0); // told twice: the same mover's new move keeps the gadget

        assertThat(free("rover", T0)).isFalse();
    }
}
