package dev.ringzero.agents.llm;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The record of llm sessions: every model turn ({@code rz_llm_turn}) and every tool call the
 * model asked for ({@code rz_llm_tool_call}) with ring 0's verdict and what came back. A device
 * command's outcome is its run action's ({@code rz_run_action}), named by {@code action_idx}.
 * Status changes are compare-and-set, so a late reply or a second node never overwrites an end.
 */
@Component
class SessionStore {

    /** Where a turn stands. */
    enum TurnStatus {
        /** The model was asked; no reply recorded yet. */
        ASKED,
        /** The reply is recorded, its tool calls not all handled yet. */
        REPLIED,
        /** Every tool call is handled (device commands are run actions): the run may go on. */
        READY,
        /** No usable reply: the model failed, was too slow, or the run ended meanwhile. */
        FAILED;

        String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        static TurnStatus fromWire(String wire) {
            return valueOf(wire.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * One model turn as recorded; {@code waitExecution} is the engine execution that waits for it
     * (null for a turn an earlier version asked: its run, in an older model, is ended at start).
     */
    record Turn(String runId, int turn, String ownerId, TurnStatus status, Instant askedAt, Instant repliedAt,
            int tokensIn, int tokensOut, Integer latencyMs, String replyText, String errorCode, String error,
            String waitExecution) {

        int tokens() {
            return tokensIn + tokensOut;
        }

        Turn replied(Instant at, int in, int out, Integer latency, String text) {
            return new Turn(runId, turn, ownerId, TurnStatus.REPLIED, askedAt, at, in, out, latency, text, errorCode,
                    error, waitExecution);
        }

        /** Ended without a usable reply; a reply that came keeps its time. */
        Turn failed(Instant at, String code, String message) {
            return new Turn(runId, turn, ownerId, TurnStatus.FAILED, askedAt, repliedAt == null ? at : repliedAt,
                    tokensIn, tokensOut, latencyMs, replyText, code, message, waitExecution);
        }

        Turn ready() {
            return new Turn(runId, turn, ownerId, TurnStatus.READY, askedAt, repliedAt, tokensIn, tokensOut, latencyMs,
                    replyText, errorCode, error, waitExecution);
        }
    }

    /** One tool call as recorded; {@code done} once ring 0's verdict and its result are in. */
    record Call(int turn, int seq, String callId, String tool, String capability, String arguments, String verdict,
            String reason, Integer actionIndex, String result, boolean done) {

        /** The call as ring 0's verdict left it. */
        Call decided(String capabilityNow, String verdictNow, String reasonNow, Integer actionIndexNow,
                String resultNow, boolean doneNow) {
            return new Call(turn, seq, callId, tool, capabilityNow, arguments, verdictNow, reasonNow, actionIndexNow,
                    resultNow, doneNow);
        }
    }

    private static final String TURN_COLUMNS = "run_id, turn, owner_id, status, asked_at, replied_at, tokens_in, "
            + "tokens_out, latency_ms, reply_text, error_code, error, wait_execution";
    private static final String CALL_COLUMNS = "turn, seq, call_id, tool, capability, arguments, verdict, reason, "
            + "action_idx, result, done";

    private final JdbcClient jdbc;
    /**
     * A run's turns and tool calls are read once per transaction until one of them is written
     * (deciding whether the run wants a turn and asking it read both twice, each time anew).
     */
    private final dev.ringzero.TransactionReads reads;
    /** What each owner's turns spent per day: every reply recorded here is added to it. */
    private final OwnerTokens ownerTokens;

    /** This node's name: a turn is played by the node that asked it, and resumed by it or for a dead one. */
    private final String node;
    /** How long a node of a cluster counts as alive after its last renewal ({@code rz_cluster_node}). */
    private final java.time.Duration liveFor;

    SessionStore(JdbcClient jdbc, dev.ringzero.TransactionReads reads, OwnerTokens ownerTokens,
            @org.springframework.beans.factory.annotation.Value("${ringzero.mqtt.node-id:1}") String node,
            @org.springframework.beans.factory.annotation.Value("${ringzero.cluster.lease-ttl:PT6S}")
            java.time.Duration liveFor) {
        this.jdbc = jdbc;
        this.reads = reads;
        this.ownerTokens = ownerTokens;
        this.node = node;
        this.liveFor = liveFor;
    }

    /**
     * A turn asked of the model, whose wait (the engine execution {@code waitExecution}) ends at
     * {@code replyBy} unless it is ready or failed first.
     */
    void asked(String runId, int turn, String ownerId, Instant at, Instant replyBy, String waitExecution) {
        Turn asked = new Turn(runId, turn, ownerId, TurnStatus.ASKED, stored(at), null, 0, 0, null, null, null, null,
                waitExecution);
        changeTurns(runId, turns -> plus(turns, List.of(asked)));
        jdbc.sql("insert into rz_llm_turn(run_id, turn, owner_id, status, asked_at, node_id, reply_by, wait_execution) "
                        + "values (?, ?, ?, 'asked', ?, ?, ?, ?)")
                .params(runId, turn, ownerId, ts(at), node, ts(replyBy), waitExecution).update();
    }

    /**
     * The engine execution that waits for {@code turn}, if the turn is still the run's latest,
     * read under a lock on the turn's row that every waker of the turn takes: a turn already ready
     * or failed may be woken by more than one (two nodes' sweeps, a resumed turn), and the first
     * moves the run on to its next turn in the same execution, which the others must not wake.
     * Each reads here after the one before it committed, and finds a later turn. Empty when nothing
     * waits for the turn (a later turn is asked, the turn is gone, or an earlier version asked it).
     */
    Optional<String> waitOfLatest(String runId, int turn) {
        wroteTurns(runId); // what this transaction read of the run's turns may be older than the lock
        Optional<String> wait = jdbc.sql("select wait_execution from rz_llm_turn where run_id = ? and turn = ? "
                        + "and wait_execution is not null for update")
                .params(runId, turn).query(String.class).optional();
        if (wait.isEmpty()) {
            return Optional.empty();
        }
        int latest = turns(runId).stream().mapToInt(Turn::turn).max().orElse(turn);
        return latest == turn ? wait : Optional.empty();
    }

    /**
     * A turn ready or failed whose run could not be woken (its instance suspended): the sweep
     * wakes it at {@code at}, or later again.
     */
    void wakeAgain(String runId, int turn, Instant at) {
        jdbc.sql("update rz_llm_turn set reply_by = ? where run_id = ? and turn = ?").params(ts(at), runId, turn)
                .update();
    }

    /** A turn ready or failed whose run is woken at last: nothing is due any more. */
    void woken(String runId, int turn) {
        jdbc.sql("update rz_llm_turn set reply_by = null where run_id = ? and turn = ?").params(runId, turn).update();
    }

    /** A turn due: asked or replied past its deadline, or ready or failed and not woken yet. */
    record Overdue(String runId, int turn) {
    }

    /** Turns due by {@code now}, the earliest first (an indexed read of a few rows). */
    List<Overdue> overdue(Instant now, int limit) {
        return jdbc.sql("select run_id, turn from rz_llm_turn where reply_by is not null and reply_by <= ? "
                        + "order by reply_by fetch first ? rows only")
                .params(ts(now), limit)
                .query((rs, n) -> new Overdue(rs.getString("run_id"), rs.getInt("turn"))).list();
    }

    List<Turn> turns(String runId) {
        return reads.get(turnsKey(runId), () -> List.copyOf(jdbc.sql("select " + TURN_COLUMNS
                + " from rz_llm_turn where run_id = ? order by turn").param(runId).query(SessionStore::turn).list()));
    }

    Optional<Turn> turn(String runId, int turn) {
        return turns(runId).stream().filter(recorded -> recorded.turn() == turn).findFirst();
    }

    List<Call> calls(String runId) {
        return reads.get(callsKey(runId), () -> List.copyOf(jdbc.sql("select " + CALL_COLUMNS
                + " from rz_llm_tool_call where run_id = ? order by turn, seq").param(runId).query(SessionStore::call)
                .list()));
    }

    /**
     * A write of a run's turns or calls changes what this transaction read of them in place, as
     * the database now holds it (times as stored: rounded to the microsecond), so the turn's later
     * steps in the transaction read nothing again; one never read stays unread.
     */
    private void changeTurns(String runId, java.util.function.UnaryOperator<List<Turn>> change) {
        reads.<List<Turn>>change(turnsKey(runId), turns -> List.copyOf(change.apply(turns)));
    }

    private void changeTurn(String runId, int turn, java.util.function.UnaryOperator<Turn> change) {
        changeTurns(runId, turns -> turns.stream().map(t -> t.turn() == turn ? change.apply(t) : t).toList());
    }

    private void changeCalls(String runId, java.util.function.UnaryOperator<List<Call>> change) {
        reads.<List<Call>>change(callsKey(runId), calls -> List.copyOf(change.apply(calls)));
    }

    private void changeCall(String runId, int turn, int seq, java.util.function.UnaryOperator<Call> change) {
        changeCalls(runId, calls -> calls.stream().map(c -> c.turn() == turn && c.seq() == seq ? change.apply(c) : c)
                .toList());
    }

    private static <T> List<T> plus(List<T> list, List<T> more) {
        List<T> all = new java.util.ArrayList<>(list);
        all.addAll(more);
        return all;
    }

    /** An instant as PostgreSQL stores it: rounded to the microsecond (SessionStoreReadsTest). */
    private static Instant stored(Instant at) {
        return at.plusNanos(500).truncatedTo(java.time.temporal.ChronoUnit.MICROS);
    }

    /** What this transaction read of a run's turns is read again (a write the copy cannot follow). */
    private void wroteTurns(String runId) {
        reads.forget(turnsKey(runId));
    }

    private static String turnsKey(String runId) {
        return "rz_llm_turn:" + runId;
    }

    private static String callsKey(String runId) {
        return "rz_llm_tool_call:" + runId;
    }

    /**
     * Records the reply of a turn still asked, and its tool calls (not yet handled); false if the
     * turn ended meanwhile (its tokens are still counted: they were spent).
     */
    boolean replied(String runId, int turn, ModelReply.Answered reply, int latencyMs, Instant at) {
        int moved = jdbc.sql("update rz_llm_turn set status = 'replied', replied_at = ?, tokens_in = ?, tokens_out = ?, "
                        + "latency_ms = ?, reply_text = ? where run_id = ? and turn = ? and status = 'asked'")
                .params(ts(at), reply.tokensIn(), reply.tokensOut(), latencyMs, reply.text(), runId, turn).update();
        if (moved == 0) {
            spent(runId, turn, reply.tokensIn(), reply.tokensOut(), at);
            return false;
        }
        ownerTokens.charge(runId, turn, reply.tokensIn() + reply.tokensOut(), at);
        Instant replied = stored(at);
        changeTurn(runId, turn, t -> t.replied(replied, reply.tokensIn(), reply.tokensOut(), latencyMs, reply.text()));
        List<Call> added = new java.util.ArrayList<>();
        for (int seq = 0; seq < reply.toolCalls().size(); seq++) {
            ToolCall asked = reply.toolCalls().get(seq);
            Call call = new Call(turn, seq, clip(asked.id(), 128), clip(asked.name(), 128), null, asked.arguments(),
                    null, null, null, null, false);
            jdbc.sql("insert into rz_llm_tool_call(run_id, turn, seq, call_id, tool, arguments) values (?, ?, ?, ?, ?, ?)")
                    .params(runId, turn, seq, call.callId(), call.tool(), call.arguments()).update();
            added.add(call);
        }
        if (!added.isEmpty()) {
            changeCalls(runId, calls -> plus(calls, added));
        }
        return true;
    }

    /** Tokens of a reply that came too late to count as the turn's answer. */
    void spent(String runId, int turn, int tokensIn, int tokensOut, Instant at) {
        wroteTurns(runId);
        jdbc.sql("update rz_llm_turn set tokens_in = ?, tokens_out = ? where run_id = ? and turn = ?")
                .params(tokensIn, tokensOut, runId, turn).update();
        ownerTokens.charge(runId, turn, tokensIn + tokensOut, at);
    }

    /** Ends a turn that has no usable reply; false if it was ready or failed already. */
    boolean failed(String runId, int turn, String code, String message, Instant at) {
        String error = clip(message, 500);
        boolean moved = jdbc.sql("update rz_llm_turn set status = 'failed', error_code = ?, error = ?, replied_at = "
                        + "coalesce(replied_at, ?), reply_by = null where run_id = ? and turn = ? "
                        + "and status in ('asked', 'replied')")
                .params(code, error, ts(at), runId, turn).update() == 1;
        if (moved) {
            Instant ended = stored(at);
            changeTurn(runId, turn, t -> t.failed(ended, code, error));
        }
        return moved;
    }

    /** What ring 0 said of a call before it ran (an envelope about to be submitted). */
    void deciding(String runId, int turn, int seq, String capability, String verdict) {
        changeCall(runId, turn, seq, c -> c.decided(capability, verdict, c.reason(), c.actionIndex(), c.result(), c.done()));
        jdbc.sql("update rz_llm_tool_call set capability = ?, verdict = ? where run_id = ? and turn = ? and seq = ?")
                .params(capability, verdict, runId, turn, seq).update();
    }

    /** A call handled here: its verdict, why, and what the model reads back. */
    void handled(String runId, int turn, int seq, String capability, String verdict, String reason, String result) {
        String why = clip(reason, 500);
        changeCall(runId, turn, seq, c -> c.decided(capability, verdict, why, c.actionIndex(), result, true));
        jdbc.sql("update rz_llm_tool_call set capability = ?, verdict = ?, reason = ?, result = ?, done = true "
                        + "where run_id = ? and turn = ? and seq = ?")
                .params(capability, verdict, why, result, runId, turn, seq).update();
    }

    /** A device call made a run action: the kernel decides when the run dispatches it. */
    void becameAction(String runId, int turn, int seq, String capability, int actionIndex) {
        changeCall(runId, turn, seq, c -> c.decided(capability, "action", c.reason(), actionIndex, c.result(), true));
        jdbc.sql("update rz_llm_tool_call set capability = ?, verdict = 'action', action_idx = ?, done = true "
                        + "where run_id = ? and turn = ? and seq = ?")
                .params(capability, actionIndex, runId, turn, seq).update();
    }

    /** Every call of the turn is handled: the run may go on. */
    boolean ready(String runId, int turn) {
        boolean moved = jdbc.sql("update rz_llm_turn set status = 'ready', reply_by = null where run_id = ? and turn = ? "
                        + "and status = 'replied'")
                .params(runId, turn).update() == 1;
        if (moved) {
            changeTurn(runId, turn, Turn::ready);
        }
        return moved;
    }

    /** Tokens all of an owner's turns spent on the UTC day of {@code at} (replies recorded that day). */
    long ownerTokensOn(String ownerId, Instant at) {
        return ownerTokens.spentOn(ownerId, at);
    }

    /**
     * What a restart picks up in running runs: turns asked or replied but not ready, and a run's
     * last turn if it is ready or failed, since the wake that should have followed it may have
     * been lost with the node (its run then still waits for it). Only turns this node played
     * before it stopped, or whose node is gone: on a node of a cluster, another live node is
     * still playing its own (playing them here too would ask the model twice).
     */
    List<Turn> unfinished(Instant now) {
        return unfinished(now, true);
    }

    /**
     * Turns of nodes that are gone, for a live node of a cluster to resume: as {@link
     * #unfinished(Instant)}, without this node's own (they are being played here).
     */
    List<Turn> orphaned(Instant now) {
        return unfinished(now, false);
    }

    private List<Turn> unfinished(Instant now, boolean ownToo) {
        return jdbc.sql("select t.run_id, t.turn, t.owner_id, t.status, t.asked_at, t.replied_at, t.tokens_in, "
                        + "t.tokens_out, t.latency_ms, t.reply_text, t.error_code, t.error, t.wait_execution "
                        + "from rz_llm_turn t "
                        + "join rz_run r on r.id = t.run_id where r.status = 'running' and (t.status in ('asked', "
                        + "'replied') or t.turn = (select max(l.turn) from rz_llm_turn l where l.run_id = t.run_id)) "
                        + "and (" + (ownToo ? "t.node_id = ? or " : "t.node_id <> ? and (")
                        + "t.node_id is null or not exists (select 1 from rz_cluster_node n where n.node_id = t.node_id "
                        + "and n.seen_at > ?))" + (ownToo ? "" : ")") + " order by t.asked_at")
                .params(node, ts(now.minus(liveFor)))
                .query(SessionStore::turn).list();
    }

    /**
     * Takes a turn over for this node, from whichever node played it (empty: none recorded); false
     * if another node took it first, so only one node resumes a dead node's turn.
     */
    boolean claim(Turn turn) {
        wroteTurns(turn.runId());
        String was = jdbc.sql("select node_id from rz_llm_turn where run_id = ? and turn = ?")
                .params(turn.runId(), turn.turn()).query(String.class).optional().orElse(null);
        if (node.equals(was)) {
            return true;
        }
        return jdbc.sql("update rz_llm_turn set node_id = ? where run_id = ? and turn = ? and "
                        + (was == null ? "node_id is null" : "node_id = ?"))
                .params(was == null ? List.of(node, turn.runId(), turn.turn())
                        : List.of(node, turn.runId(), turn.turn(), was))
                .update() == 1;
    }

    private static Turn turn(ResultSet rs, int n) throws SQLException {
        int latency = rs.getInt("latency_ms");
        Integer latencyMs = rs.wasNull() ? null : latency;
        return new Turn(rs.getString("run_id"), rs.getInt("turn"), rs.getString("owner_id"),
                TurnStatus.fromWire(rs.getString("status")), instant(rs.getTimestamp("asked_at")),
                instant(rs.getTimestamp("replied_at")), rs.getInt("tokens_in"), rs.getInt("tokens_out"),
                latencyMs, rs.getString("reply_text"), rs.getString("error_code"),
                rs.getString("error"), rs.getString("wait_execution"));
    }

    private static Call call(ResultSet rs, int n) throws SQLException {
        int index = rs.getInt("action_idx");
        Integer actionIndex = rs.wasNull() ? null : index;
        return new Call(rs.getInt("turn"), rs.getInt("seq"), rs.getString("call_id"), rs.getString("tool"),
                rs.getString("capability"), rs.getString("arguments"), rs.getString("verdict"), rs.getString("reason"),
                actionIndex, rs.getString("result"), rs.getBoolean("done"));
    }

    private static String clip(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
