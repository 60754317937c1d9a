package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerArbiter;
import dev.ringzero.kernel.Turn;
import dev.ringzero.support.MovableClock;
import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One sound at a time per gadget across the nodes of a cluster (issue 24): two nodes' {@link
 * SpeakerFloor}s, each with nothing in common but the test's PostgreSQL, as two platform processes
 * on one database with {@code ringzero.cluster.enabled} would be. Each node tells its turns to its
 * own listener.
 */
class ClusterSpeakerFloorTest extends PlatformTest {

    private static final Duration STALE = Duration.ofSeconds(30);

    @Autowired
    JdbcClient jdbc;
    @Autowired
    PlatformTransactionManager transactions;

    private final String desk = "desk-" + UUID.randomUUID();
    private final List<Node> nodes = new ArrayList<>();

    /** A node's floor, its clock and the turns it told. */
    private final class Node {

        final MovableClock now;
        final BlockingQueue<List<Turn>> told = new LinkedBlockingQueue<>();
        final SpeakerFloor floor;

        Node(Instant start) {
            now = new MovableClock(start);
            Clock clock = now;
            SpeakerFloor.TurnListener listener = (gadgetId, turns) -> {
                if (gadgetId.startsWith(desk)) { // another test's gadgets are not this one's business
                    told.add(turns);
                }
            };
            floor = new SpeakerFloor(clock, () -> Stream.of(listener),
                    new SpeakerArbiter(STALE, new DatabaseSpeakerBook(jdbc, transactions)),
                    new DatabaseSpeakerHolds(jdbc, transactions));
            nodes.add(this);
        }

        List<Turn> nextTurns() throws InterruptedException {
            List<Turn> turns = told.poll(5, TimeUnit.SECONDS);
            assertThat(turns).as("a turn told by this node").isNotNull();
            return turns;
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    /** Asked on another thread: outside the calling step's transaction, as on another node. */
    private static <T> T elsewhere(ExecutorService thread, java.util.concurrent.Callable<T> call) {
        try {
            return thread.submit(call).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void stopNodes() {
        nodes.forEach(node -> node.floor.stop());
    }

    @Test
    void aSoundGrantedOnOneNodeMakesTheOtherNodesRequestWait() {
        Instant now = now();
        Node a = new Node(now);
        Node b = new Node(now);

        assertThat(a.floor.request(desk, "sound-a", Priority.PROACTIVE, now)).isEqualTo(new Claim.Granted("sound-a"));
        assertThat(b.floor.request(desk, "sound-b", Priority.APPROVED_GATE, now))
                .as("the other node sees the holder").isEqualTo(new Claim.Queued("sound-b", 1));
        assertThat(b.floor.holder(desk)).contains("sound-a");
        assertThat(a.floor.waiting(desk)).containsExactly("sound-b");
    }

    @Test
    void theEndOfPlaybackReachingTheOtherNodeHandsTheSpeakerOnAndTellsItsListener() throws Exception {
        Instant now = now();
        Node a = new Node(now);
        Node b = new Node(now);
        a.floor.request(desk, "sound-a", Priority.PROACTIVE, now);
        a.floor.playing("inv-a", desk, "sound-a");
        a.floor.request(desk, "sound-next", Priority.PROACTIVE, now);

        b.floor.ended("inv-a"); // the device's speaker_idle, delivered to node B

        assertThat(b.nextTurns()).containsExactly(new Turn.Granted("sound-next"));
        assertThat(a.floor.holder(desk)).contains("sound-next");
        a.floor.ended("inv-a");
        assertThat(a.floor.holder(desk)).as("an end told twice frees the speaker once").contains("sound-next");
        assertThat(a.told).isEmpty();
    }

    @Test
    void anInteractionStartedOnOneNodePreemptsTheOtherNodesHolder() throws Exception {
        Instant now = now();
        Node a = new Node(now);
        Node b = new Node(now);
        a.floor.request(desk, "background", Priority.PROACTIVE, now);
        a.floor.request(desk, "waiting", Priority.EXPLICIT, now);

        b.floor.interactionStarted(desk);

        assertThat(b.nextTurns()).containsExactly(new Turn.Preempted("background"));
        assertThat(a.floor.holder(desk)).isEmpty();
        assertThat(a.floor.request(desk, "later", Priority.APPROVED_GATE, now))
                .as("the person interacts: background waits on every node").isInstanceOf(Claim.Queued.class);

        a.floor.interactionEnded(desk);
        assertThat(a.nextTurns()).containsExactly(new Turn.Granted("later"));
        assertThat(b.floor.holder(desk)).contains("later");
    }

    @Test
    void aStepThatRollsBackGivesItsClaimBackOnBothNodes() throws Exception {
        Instant now = now();
        Node a = new Node(now);
        Node b = new Node(now);

        ExecutorService nodeB = Executors.newSingleThreadExecutor();
        try {
            new TransactionTemplate(transactions).executeWithoutResult(status -> {
                assertThat(a.floor.request(desk, "step", Priority.PROACTIVE, now)).isInstanceOf(Claim.Granted.class);
                a.floor.playing("inv-step", desk, "step");
                // a change commits on its own: the other node sees the claim while the step runs
                assertThat(elsewhere(nodeB, () -> b.floor.request(desk, "other", Priority.PROACTIVE, now)))
                        .isInstanceOf(Claim.Queued.class);
                status.setRollbackOnly();
            });
        } finally {
            nodeB.shutdownNow();
        }

        assertThat(a.nextTurns()).as("given back, the speaker goes to the next in line")
                .containsExactly(new Turn.Granted("other"));
        assertThat(b.floor.holder(desk)).contains("other");
        b.floor.ended("inv-step");
        assertThat(b.floor.holder(desk)).as("the rolled-back sound holds nothing any more").contains("other");
    }

    @Test
    void requestsRacingFromBothNodesNeverGetTwoHolders() throws Exception {
        Instant now = now();
        List<Node> two = List.of(new Node(now), new Node(now));
        int contenders = 12;
        ExecutorService threads = Executors.newFixedThreadPool(contenders);
        try {
            // a gadget's first row, raced for; then its row exists and is free, raced for again
            for (String gadget : List.of(desk + "-fresh", desk + "-fresh")) {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Claim>> answers = new ArrayList<>();
                for (int k = 0; k < contenders; k++) {
                    SpeakerFloor floor = two.get(k % 2).floor;
                    String ticket = "sound-" + k;
                    answers.add(threads.submit(() -> {
                        start.await();
                        return floor.request(gadget, ticket, Priority.PROACTIVE, now);
                    }));
                }
                start.countDown();
                List<String> granted = new ArrayList<>();
                for (Future<Claim> answer : answers) {
                    Claim claim = answer.get(30, TimeUnit.SECONDS);
                    if (claim.granted()) {
                        granted.add(claim.ticket());
                    }
                }
                assertThat(granted).as("one holder, whichever node asked").hasSize(1);
                assertThat(two.get(1).floor.holder(gadget)).contains(granted.get(0));
                assertThat(two.get(0).floor.waiting(gadget)).hasSize(contenders - 1).doesNotContain(granted.get(0));

                // ... and every release on either node hands the speaker to exactly one waiter
                List<String> served = new ArrayList<>(granted);
                for (int k = 1; k < contenders; k++) {
                    Node releasing = two.get(k % 2);
                    releasing.floor.release(gadget, served.get(served.size() - 1));
                    List<Turn> turns = releasing.nextTurns();
                    assertThat(turns).hasSize(1).first().isInstanceOf(Turn.Granted.class);
                    served.add(((Turn.Granted) turns.get(0)).ticket());
                }
                assertThat(served).doesNotHaveDuplicates().hasSize(contenders);
                two.get(0).floor.release(gadget, served.get(served.size() - 1));
                assertThat(two.get(1).floor.holder(gadget)).isEmpty();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aSpeakerHeldByANodeThatDiedIsFreedByTheBoundFromAnyNode() throws Exception {
        Instant now = now();
        Node dying = new Node(now);
        dying.floor.request(desk, "playing", Priority.PROACTIVE, now);
        dying.floor.playing("inv-playing", desk, "playing");
        String granted = desk + "-granted";
        dying.floor.request(granted, "never-sent", Priority.PROACTIVE, now); // died before sending it
        // and the node is gone: no end of playback, no release, no sweep of its own

        Node survivor = new Node(now.plus(SpeakerFloor.MAX_HOLD));
        survivor.floor.request(desk, "next", Priority.EXPLICIT, survivor.now.instant());
        survivor.floor.releaseForgottenHolds();
        assertThat(survivor.floor.holder(desk)).as("held exactly the bound: not yet").contains("playing");
        assertThat(survivor.told).isEmpty();

        survivor.now.set(now.plus(SpeakerFloor.MAX_HOLD).plusMillis(1));
        survivor.floor.releaseForgottenHolds();

        assertThat(survivor.nextTurns()).containsExactly(new Turn.Granted("next"));
        assertThat(survivor.floor.holder(desk)).contains("next");
        assertThat(survivor.floor.holder(granted)).as("a grant never played is bounded alike").isEmpty();
        assertThat(jdbc.sql("select count(*) from rz_speaker_hold where invocation_id = 'inv-playing'")
                .query(Integer.class).single()).as("its hold forgotten").isZero();
    }
}
