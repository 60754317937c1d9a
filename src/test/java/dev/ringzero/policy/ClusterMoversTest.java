package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.MoverLease;
import dev.ringzero.kernel.Subject;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One mover at a time across the nodes of a cluster (issue 24): two nodes' {@link Movers}, each
 * with nothing in common but the test's PostgreSQL, as two platform processes on one database
 * would be.
 */
class ClusterMoversTest extends PlatformTest {

    private static final Duration MOVE = Duration.ofSeconds(3);

    @Autowired
    JdbcClient jdbc;
    @Autowired
    PlatformTransactionManager transactions;

    private final String rover = "rover-" + UUID.randomUUID();
    private final Subject patrol = new Subject.AgentRun("alice", "patrol", 1, "run-1");
    private final Subject follower = new Subject.AgentRun("alice", "follower", 1, "run-2");
    private final Subject person = new Subject.Owner("alice");

    private Movers node() {
        return new Movers(jdbc, transactions);
    }

    @Test
    void aGadgetMovedOnOneNodeIsBusyOnTheOtherUntilItsMoveIsAnswered() {
        Movers a = node();
        Movers b = node();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        assertThat(a.take("inv-1", patrol, rover, MOVE, now)).isInstanceOf(Lease.Granted.class);
        Lease refused = b.take("inv-2", follower, rover, MOVE, now);
        assertThat(refused).as("the other node sees the patrol's lease").isInstanceOf(Lease.Busy.class);
        assertThat(((Lease.Busy) refused).holder()).isEqualTo("agent:patrol");

        a.ended("inv-1", now);
        assertThat(b.take("inv-3", follower, rover, MOVE, now)).as("answered on its node: free everywhere")
                .isInstanceOf(Lease.Granted.class);
    }

    @Test
    void aStopSentFromEitherNodeFreesTheGadgetForEveryNode() {
        Movers a = node();
        Movers b = node();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        a.take("inv-1", patrol, rover, MOVE, now);

        b.stopping(rover, now);

        assertThat(b.take("inv-2", person, rover, MOVE, now)).isInstanceOf(Lease.Granted.class);
        assertThat(a.take("inv-3", patrol, rover, MOVE, now)).as("the person holds it now, on the other node too")
                .isInstanceOf(Lease.Busy.class);
    }

    @Test
    void aLeaseOfANodeThatDiedIsFreedByItsBoundAndNoSooner() {
        Movers dying = node();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        dying.take("inv-1", patrol, rover, Duration.ofMinutes(5), now); // and the node is gone: nothing ends it

        Movers survivor = node();
        assertThat(survivor.take("inv-2", follower, rover, MOVE, now.plus(MoverLease.DEFAULT_MAX).minusMillis(1)))
                .isInstanceOf(Lease.Busy.class);
        assertThat(survivor.take("inv-3", follower, rover, MOVE, now.plus(MoverLease.DEFAULT_MAX)))
                .as("a lease is never longer than the bound, whoever held it").isInstanceOf(Lease.Granted.class);
    }

    @Test
    void theSameMoverRenewsFromAnotherNode() {
        Movers a = node();
        Movers b = node();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        a.take("inv-1", patrol, rover, MOVE, now);

        Subject samePatrolAnotherRun = new Subject.AgentRun("alice", "patrol", 1, "run-9");
        assertThat(b.take("inv-2", samePatrolAnotherRun, rover, MOVE, now.plusSeconds(1)))
                .isEqualTo(new Lease.Granted("agent:patrol", now.plusSeconds(4)));
    }

    @Test
    void movesRacingFromTwoNodesForAFreshGadgetGetOneHolder() throws Exception {
        List<Movers> nodes = List.of(node(), node());
        int contenders = 8;
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(contenders);
        try {
            List<Future<Lease>> answers = new ArrayList<>();
            for (int k = 0; k < contenders; k++) {
                Movers node = nodes.get(k % 2);
                Subject mover = new Subject.AgentRun("alice", "agent-" + k, 1, "run-" + k);
                String invocation = "inv-" + k;
                answers.add(threads.submit(() -> {
                    start.await();
                    return node.take(invocation, mover, rover, MOVE, now);
                }));
            }
            start.countDown();
            List<Lease> granted = new ArrayList<>();
            for (Future<Lease> answer : answers) {
                Lease lease = answer.get();
                if (lease instanceof Lease.Granted) {
                    granted.add(lease);
                }
            }
            assertThat(granted).as("the gadget's first row is written by one node; the rest are told who moves")
                    .hasSize(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aLeaseTakenInsideAStepThatRollsBackIsStillBoundedAndVisibleAtOnce() {
        Movers a = node();
        Movers b = node();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TransactionTemplate step = new TransactionTemplate(transactions);

        step.executeWithoutResult(status -> {
            assertThat(a.take("inv-1", patrol, rover, MOVE, now)).isInstanceOf(Lease.Granted.class);
            // committed on its own: another node is refused while this step still runs
            assertThat(b.take("inv-2", follower, rover, MOVE, now)).isInstanceOf(Lease.Busy.class);
            status.setRollbackOnly();
        });

        assertThat(b.take("inv-3", follower, rover, MOVE, now.plus(MOVE))).as("lapsed by the bound asked for")
                .isInstanceOf(Lease.Granted.class);
    }
}
