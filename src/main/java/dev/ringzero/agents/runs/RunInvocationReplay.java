package dev.ringzero.agents.runs;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.gateway.Dispatcher;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.CommandKind;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.Verdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * After a start, re-publishes the commands of running runs that no device has answered yet and
 * whose deadline is still ahead. A run's command is published after its transaction commits, so
 * a node that stopped in between recorded a command no device ever got; without this its run would
 * wait out the deadline and end {@code unknown}. The repeat has the same invocation id, parameters
 * and deadline: a device executes an id at most once and answers a repeat from its stored result,
 * so a command that did arrive is not done twice. Each is judged by the kernel again first (a run
 * of an agent disabled meanwhile is fenced, not repeated). Sounds are left to their deadline: an
 * uncertain audible effect is never repeated, and the speaker floor a sound needs was this node's.
 */
@Component
public class RunInvocationReplay {

    private static final Logger log = LoggerFactory.getLogger(RunInvocationReplay.class);

    private final JdbcClient jdbc;
    private final PolicyKernel kernel;
    private final Dispatcher dispatcher;
    private final ObjectMapper json;
    private final Clock clock;

    RunInvocationReplay(JdbcClient jdbc, PolicyKernel kernel, Dispatcher dispatcher, ObjectMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.kernel = kernel;
        this.dispatcher = dispatcher;
        this.json = json;
        this.clock = clock;
    }

    /** An unanswered command of a running run. */
    record Pending(String invocationId, String gadgetId, String command, String params, Instant sentAt,
            Instant deadline, String runId, String ownerId, String agentId, int revision, boolean proactive) {
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        Instant started = clock.instant();
        // off the start-up thread, as the gate reconciler
        Thread thread = new Thread(() -> {
            try {
                replaySentBefore(started);
            } catch (RuntimeException e) {
                log.warn("replaying unanswered run commands failed; their runs end at their deadlines: {}",
                        e.toString());
            }
        }, "run-invocation-replay");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Re-publishes every unanswered command of a running run sent before {@code before} whose
     * deadline is ahead; returns the invocation ids published again.
     */
    public List<String> replaySentBefore(Instant before) {
        Instant now = clock.instant();
        List<Pending> pending = jdbc.sql("""
                select i.id, i.gadget_id, i.command, i.params, i.sent_at, i.deadline,
                       r.id as run_id, r.owner_id, r.agent_id, r.revision, r.proactive
                from rz_invocation i join rz_run r on r.id = i.run_id
                where i.outcome = 'sent' and i.origin = 'run' and r.status = 'running'
                  and i.sent_at < ? and i.deadline > ?
                order by i.sent_at""")
                .params(Timestamp.from(before), Timestamp.from(now))
                .query((rs, n) -> new Pending(rs.getString("id"), rs.getString("gadget_id"), rs.getString("command"),
                        rs.getString("params"), rs.getTimestamp("sent_at").toInstant(),
                        rs.getTimestamp("deadline").toInstant(), rs.getString("run_id"), rs.getString("owner_id"),
                        rs.getString("agent_id"), rs.getInt("revision"), rs.getBoolean("proactive")))
                .list();
        List<String> replayed = new ArrayList<>();
        for (Pending p : pending) {
            if (CommandKind.of(p.command()) == CommandKind.SOUND) {
                continue;
            }
            Verdict verdict = kernel.decide(new ActionRequest(
                    new Subject.AgentRun(p.ownerId(), p.agentId(), p.revision(), p.runId()), p.gadgetId(), p.command(),
                    StoredJson.map(json, p.params()), p.proactive() ? Priority.PROACTIVE : Priority.EXPLICIT,
                    clock.instant()));
            if (!verdict.allowed()) {
                log.info("run {}: not repeating invocation {} to {} ({})", p.runId(), p.invocationId(), p.gadgetId(),
                        verdict.wire());
                continue;
            }
            try {
                dispatcher.republish(p.invocationId(), p.gadgetId(), p.command(), p.params(), p.sentAt(),
                        p.deadline());
                replayed.add(p.invocationId());
            } catch (RuntimeException e) {
                // the next one still gets its turn; this one ends at its deadline
                log.warn("run {}: could not repeat invocation {}: {}", p.runId(), p.invocationId(), e.toString());
            }
        }
        if (!replayed.isEmpty()) {
            log.info("repeated {} unanswered run command(s) sent before this start", replayed.size());
        }
        return replayed;
    }
}
