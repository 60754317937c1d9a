package dev.ringzero.agents.runs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import dev.ringzero.agents.RunRecords;
import dev.ringzero.kernel.BudgetUsage;
import dev.ringzero.SqlDialect;
import dev.ringzero.TransactionReads;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Runs, their actions, and the decision ledger. */
// a plain component: JdbcClient already throws DataAccessException, and @Repository's translating
// proxy would cost every read of the run path a reflective call
@Component
public class RunStore implements RunRecords {

    /**
     * How soon a run that could not be woken because its instance is suspended (in Cockpit) is
     * looked at again: the answer sweep's overdue command and the turn sweep's ended turn alike.
     */
    public static final Duration SUSPENDED_LOOK_AGAIN = Duration.ofSeconds(5);

    /** One run as recorded. */
    public record Run(String id, String agentId, String ownerId, int revision, String triggerKind, String triggerData,
            String eventId, boolean proactive, RunStatus status, String reason, Instant createdAt, Instant startedAt,
            Instant endedAt) {

        /** As a status change leaves the row (see {@link #transition} and {@link #end}). */
        Run moved(RunStatus to, String why, Instant at) {
            boolean starts = to == RunStatus.RUNNING;
            boolean ends = !starts;
            return new Run(id, agentId, ownerId, revision, triggerKind, triggerData, eventId, proactive, to,
                    why == null ? reason : why, createdAt, starts ? at : startedAt, ends ? at : endedAt);
        }
    }

    /** One action of a run: what was asked, what the kernel said, what the device did. */
    public record Action(int index, String gadgetId, String command, String params, String verdict, String outcome,
            String errorCode, String invocationId, String result, Instant startedAt, Instant endedAt) {

        /** As {@link #actionParams} leaves the row. */
        Action withParams(String rendered) {
            return new Action(index, gadgetId, command, rendered, verdict, outcome, errorCode, invocationId, result,
                    startedAt, endedAt);
        }

        /** As {@link #actionSent} leaves the row. */
        Action sent(String invocation) {
            return new Action(index, gadgetId, command, params, "allow", outcome, errorCode, invocation, result,
                    startedAt, endedAt);
        }

        /** As {@link #actionEnded} leaves the row. */
        Action ended(String verdictNow, String outcomeNow, String code, String resultNow, Instant at) {
            return new Action(index, gadgetId, command, params, verdictNow == null ? verdict : verdictNow, outcomeNow,
                    code, invocationId, resultNow, startedAt, at);
        }
    }

    /** An action about to be recorded: what prepare rendered, or a command an llm session's model asked for. */
    public record NewAction(String gadgetId, String command, String params) {
    }

    /** One entry of the decision ledger. */
    public record Decision(String id, String eventId, String triggerKind, String reason, String detail, String runId,
            Instant decidedAt) {
    }

    private static final String RUN_COLUMNS = "id, agent_id, owner_id, revision, trigger_kind, trigger_data, event_id, "
            + "proactive, status, reason, created_at, started_at, ended_at";
    private static final String ACTION_COLUMNS = "idx, gadget_id, command, params, verdict, outcome, error_code, "
            + "invocation_id, result, started_at, ended_at";
    /** The statuses of a run that holds one of its agent's concurrency slots. */
    private static final String HOLDING_A_SLOT = "('admitted', 'queued', 'running')";
    /** {@link #RUN_COLUMNS} of {@code rz_run r} in a join. */
    private static final String R_RUN_COLUMNS = RUN_COLUMNS.replaceAll("(\\w+)", "r.$1");
    /** What settling a detached action returns on PostgreSQL: the action's row, then its run's. */
    private static final String SETTLED_WITH_RUN = " returning " + ACTION_COLUMNS.replaceAll("(\\w+)", "a.$1") + ", "
            + R_RUN_COLUMNS;

    private final JdbcClient jdbc;
    /** A run's row and actions are read once per transaction (a run reads them at every step). */
    private final TransactionReads reads;
    private final SqlDialect dialect;

    RunStore(JdbcClient jdbc, TransactionReads reads, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.reads = reads;
        this.dialect = dialect;
    }

    void insert(Run run, boolean counted) {
        reads.put(runKey(run.id()), Optional.of(run));
        jdbc.sql("insert into rz_run(" + RUN_COLUMNS + ", counted, counted_at) "
                        + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(run.id(), run.agentId(), run.ownerId(), run.revision(), run.triggerKind(), run.triggerData(),
                        run.eventId(), run.proactive(), run.status().wire(), reasonColumn(run.reason()), ts(run.createdAt()),
                        ts(run.startedAt()), ts(run.endedAt()), counted, counted ? ts(run.createdAt()) : null)
                .update();
        if (counted) {
            countIn(run.agentId(), run.createdAt());
        }
    }

    /**
     * One more run in the agent's budget counter for {@code at}'s minute. Called under the agent's
     * admission lock (as every counted run is), so the update-or-insert cannot race itself.
     */
    private void countIn(String agentId, Instant at) {
        Timestamp minute = ts(at.truncatedTo(ChronoUnit.MINUTES));
        if (dialect == SqlDialect.POSTGRESQL) {
            // one statement, where the agent's first run of a minute took two
            jdbc.sql("insert into rz_budget_minute(agent_id, starts_at, runs) values (?, ?, 1) "
                    + "on conflict (agent_id, starts_at) do update set runs = rz_budget_minute.runs + 1")
                    .params(agentId, minute).update();
        } else if (jdbc.sql("update rz_budget_minute set runs = runs + 1 where agent_id = ? and starts_at = ?")
                .params(agentId, minute).update() == 0) {
            jdbc.sql("insert into rz_budget_minute(agent_id, starts_at, runs) values (?, ?, 1)").params(agentId, minute)
                    .update();
        }
    }

    /**
     * A cooling run admitted again once its cooldown is over: it takes the status {@code admission}
     * records (running, queued, cooling again, or the status it ends with) and, when counted,
     * counts against the budgets from {@code at}. False if it was no longer cooling (fenced meanwhile).
     */
    boolean readmitted(String runId, String agentId, AgentRuns.Admission admission, Instant at) {
        RunStatus to = admission.recorded();
        String reason = admission.reason();
        boolean counted = admission.counted();
        boolean ends = admission.ends();
        boolean starts = to == RunStatus.RUNNING;
        boolean moved = jdbc.sql("update rz_run set status = ?, reason = ?, counted = ?, counted_at = ?, "
                        + "started_at = ?, ended_at = ? where id = ? and status = 'cooling'")
                .params(to.wire(), reasonColumn(reason), counted, counted ? ts(at) : null, starts ? ts(at) : null,
                        ends ? ts(at) : null, runId)
                .update() == 1;
        if (moved && counted) {
            countIn(agentId, at);
        }
        if (moved) {
            reads.<Optional<Run>>change(runKey(runId), run -> run.map(r -> new Run(r.id(), r.agentId(), r.ownerId(),
                    r.revision(), r.triggerKind(), r.triggerData(), r.eventId(), r.proactive(), to, reasonColumn(reason),
                    r.createdAt(), starts ? at : null, ends ? at : null)));
        } else {
            reads.forget(runKey(runId));
        }
        return moved;
    }

    /** Moves a run between statuses; false if it was not in {@code from} (e.g. fenced meanwhile). */
    boolean transition(String runId, RunStatus from, RunStatus to, String reason, Instant at) {
        // running starts the run (a queued run's turn); any other status ends it
        boolean moved = jdbc.sql("update rz_run set status = ?, reason = coalesce(?, reason), "
                        + (to == RunStatus.RUNNING ? "started_at" : "ended_at") + " = ? where id = ? and status = ?")
                .params(to.wire(), reasonColumn(reason), ts(at), runId, from.wire()).update() == 1;
        return changed(runId, moved, to, reason, at);
    }

    /** What the transaction knows of the run after a status change ({@code moved}: it took). */
    private boolean changed(String runId, boolean moved, RunStatus to, String reason, Instant at) {
        if (moved) {
            reads.<Optional<Run>>change(runKey(runId), run -> run.map(r -> r.moved(to, reasonColumn(reason), at)));
        } else {
            reads.forget(runKey(runId));
        }
        return moved;
    }

    /** Ends a run that has not ended, whatever its status (active or cooling). */
    public boolean end(String runId, RunStatus to, String reason, Instant at) {
        boolean ended = jdbc.sql("update rz_run set status = ?, reason = coalesce(?, reason), ended_at = ? where id = ? "
                        + "and status in ('admitted', 'queued', 'cooling', 'running')")
                .params(to.wire(), reasonColumn(reason), ts(at), runId).update() == 1;
        return changed(runId, ended, to, reason, at);
    }

    public Optional<Run> find(String runId) {
        return reads.get(runKey(runId), () -> jdbc.sql("select " + RUN_COLUMNS + " from rz_run where id = ?")
                .param(runId).query(RunStore::map).optional());
    }

    @Override
    public Optional<LastRun> lastRun(String agentId) {
        return list(agentId, 1).stream().findFirst()
                .map(run -> new LastRun(run.id(), run.status().wire(), run.reason(), run.createdAt()));
    }

    public List<Run> list(String agentId, int limit) {
        return jdbc.sql("select " + RUN_COLUMNS + " from rz_run where agent_id = ? order by created_at desc limit ?")
                .params(agentId, limit).query(RunStore::map).list();
    }

    List<Run> active(String agentId) {
        return jdbc.sql("select " + RUN_COLUMNS + " from rz_run where agent_id = ? and status in " + HOLDING_A_SLOT
                        + " order by created_at")
                .param(agentId).query(RunStore::map).list();
    }

    /** Runs of an agent that wait, for their turn (queued) or out a cooldown (cooling), oldest first. */
    List<Run> waiting(String agentId) {
        return jdbc.sql("select " + RUN_COLUMNS + " from rz_run where agent_id = ? "
                        + "and status in ('queued', 'cooling') order by created_at")
                .param(agentId).query(RunStore::map).list();
    }

    /**
     * Counted (admitted) runs in the budget window, for the kernel's budget check, from the agent's
     * minute counters (changelog 010): at most 61 rows whatever the budget, where counting the
     * hour's runs read up to runsPerHour index entries. A run is taken to have been admitted at
     * the end of its minute, so it counts up to a minute longer than an hour, never shorter: no
     * rolling hour ever holds more than runsPerHour runs. The last admission, for the cooldown,
     * is one step down the partial index {@code ix_run_budget} (changelogs 006, 009).
     */
    @Override
    public BudgetUsage usage(String agentId, Instant now) {
        return jdbc.sql("select " + USAGE_COLUMNS + " from " + USAGE_FROM).params(agentId, agentId, budgetWindow(now))
                .query((rs, n) -> usage(rs)).single();
    }

    /** What admission reads of an agent: its budget usage and, oldest first, its runs holding a slot. */
    record Standing(BudgetUsage usage, List<Run> active) {
    }

    /**
     * The agent's {@link #usage} and {@link #active} runs in one statement (a row per active run,
     * the usage repeated; one row of usage alone when none is active): admission asks both of
     * every run it admits.
     */
    Standing standing(String agentId, Instant now) {
        List<Standing> rows = jdbc.sql("select u.*, " + R_RUN_COLUMNS + " from ("
                        + "select " + USAGE_COLUMNS + " from " + USAGE_FROM + ") u left join rz_run r "
                        + "on r.agent_id = ? and r.status in " + HOLDING_A_SLOT + " order by r.created_at")
                .params(agentId, agentId, budgetWindow(now), agentId)
                .query((rs, n) -> new Standing(usage(rs), rs.getString(4) == null ? List.of() : List.of(run(rs, 3))))
                .list();
        return new Standing(rows.get(0).usage(), rows.stream().flatMap(row -> row.active().stream()).toList());
    }

    /** The usage's statement: the window's counted runs, its first minute, the last admission. */
    private static final String USAGE_COLUMNS = "coalesce(sum(runs), 0) as runs, min(starts_at) as first_minute, "
            + "(select max(counted_at) from rz_run where agent_id = ? and counted) as last_counted";
    private static final String USAGE_FROM = "rz_budget_minute where agent_id = ? and starts_at > ?";

    private static Timestamp budgetWindow(Instant now) {
        return ts(now.minus(Duration.ofMinutes(61)));
    }

    private static BudgetUsage usage(ResultSet rs) throws SQLException {
        return new BudgetUsage(rs.getInt(1), Optional.ofNullable(instant(rs.getTimestamp(2)))
                .map(minute -> minute.plus(Duration.ofMinutes(1))), Optional.ofNullable(instant(rs.getTimestamp(3))));
    }

    int pruneBudgetMinutes(Instant olderThan) {
        return jdbc.sql("delete from rz_budget_minute where starts_at < ?").param(ts(olderThan)).update();
    }

    /** Records a run's actions, all at once: a run's actions are written once, when it starts. */
    void insertActions(String runId, List<NewAction> actions, Instant at) {
        List<Action> recorded = new java.util.ArrayList<>();
        for (int i = 0; i < actions.size(); i++) {
            NewAction action = actions.get(i);
            jdbc.sql("insert into rz_run_action(run_id, idx, gadget_id, command, params, started_at) "
                            + "values (?, ?, ?, ?, ?, ?)")
                    .params(runId, i, action.gadgetId(), action.command(), action.params(), ts(at)).update();
            recorded.add(new Action(i, action.gadgetId(), action.command(), action.params(), null, null, null, null,
                    null, at, null));
        }
        reads.put(actionsKey(runId), List.copyOf(recorded));
    }

    /**
     * Appends one action to a running run (an llm session's device tool call): it is dispatched
     * like any other, the kernel deciding when it is sent. Returns its index.
     */
    public int appendAction(String runId, NewAction action, Instant at) {
        int index = jdbc.sql("select coalesce(max(idx), -1) + 1 from rz_run_action where run_id = ?").param(runId)
                .query(Integer.class).single();
        jdbc.sql("insert into rz_run_action(run_id, idx, gadget_id, command, params, started_at) values (?, ?, ?, ?, ?, ?)")
                .params(runId, index, action.gadgetId(), action.command(), action.params(), ts(at)).update();
        reads.forget(actionsKey(runId));
        return index;
    }

    /** A command rendered again just before it is sent (after a state write): the record says what was sent. */
    void actionParams(String runId, int index, String params) {
        jdbc.sql("update rz_run_action set params = ? where run_id = ? and idx = ? and outcome is null")
                .params(params, runId, index).update();
        changeAction(runId, index, action -> action.withParams(params));
    }

    /**
     * The action left as {@code invocationId}, its answer due by {@code by}. When no process waits for
     * its answer (the run's instance ended as it left, {@code detached}) that is its {@code answer_by}:
     * the answer settles it from this row, or the deadline sweep does. Otherwise it is its
     * {@code awaited_by}: the sweep wakes the process's wait if no answer did by then; the wait is
     * the engine execution {@code waitExecution}.
     */
    void actionSent(String runId, int index, String invocationId, Instant by, boolean detached,
            String waitExecution) {
        jdbc.sql("update rz_run_action set verdict = 'allow', invocation_id = ?, answer_by = ?, awaited_by = ?, "
                        + "wait_execution = ? where run_id = ? and idx = ?")
                .params(invocationId, detached ? ts(by) : null, detached ? null : ts(by),
                        detached ? null : waitExecution, runId, index).update();
        changeAction(runId, index, action -> action.sent(invocationId));
    }

    /**
     * The engine execution that waits for the answer to the command sent as {@code invocationId},
     * while one does: the command is awaited and its action unsettled (the step that settles it
     * moves the process on in the same transaction). Empty for a detached or settled command, and
     * for one sent by an earlier version (its run waits in an older model, ended at start). The
     * action's row stays locked until the caller's transaction ends: every run waits in one
     * execution, so an answer and the deadline sweep (or two nodes' sweeps) that both found the
     * command awaited would otherwise both wake it, the second waking the wait for the next
     * command. The second waits here for the first to commit, and then finds the action settled.
     */
    Optional<String> waitFor(String runId, String invocationId) {
        return jdbc.sql("select wait_execution from rz_run_action where run_id = ? and invocation_id = ? "
                        + "and awaited_by is not null and outcome is null and wait_execution is not null for update")
                .params(runId, invocationId).query(String.class).optional();
    }

    /** A sent command whose answer is overdue: its run and invocation (see {@link #actionSent}). */
    public record Overdue(String runId, String invocationId) {
    }

    /** Awaited commands (Task_AwaitLinkResult) whose answer is overdue at {@code now}, oldest first. */
    List<Overdue> overdueAwaited(Instant now, int limit) {
        return overdueBy("awaited_by", now, limit);
    }

    /** Actions whose deadline {@code column} (answer_by or awaited_by) is passed at {@code now}, oldest first. */
    private List<Overdue> overdueBy(String column, Instant now, int limit) {
        return jdbc.sql("select run_id, invocation_id from rz_run_action where " + column + " is not null and "
                        + column + " <= ? order by " + column + " fetch first " + Math.max(1, limit) + " rows only")
                .param(ts(now))
                .query((rs, n) -> new Overdue(rs.getString(1), rs.getString(2))).list();
    }

    /**
     * The awaited command's deadline moves to {@code by} (null: no longer watched, no wait is left
     * to wake), unless its action was settled meanwhile.
     */
    void awaitedBy(String runId, String invocationId, Instant by) {
        jdbc.sql("update rz_run_action set awaited_by = ? where run_id = ? and invocation_id = ? "
                        + "and awaited_by is not null")
                .params(ts(by), runId, invocationId).update();
    }

    /**
     * Settles the detached action sent as {@code invocationId} with its answer (or {@code unknown}),
     * if it is still unsettled: the one conditional update decides between an answer and the
     * deadline sweep, and between two nodes' sweeps. Returns the action as settled, or empty if it
     * was not detached or is settled already.
     *
     * <p>The run's finish reads the run and its actions next. On PostgreSQL the update returns the
     * run's row with the action's; and a detached action is its run's last, so one of index 0 is
     * its run's only action: for the common one-command run, nothing is read again.
     */
    Optional<Action> unawaitedEnded(String runId, String invocationId, String outcome, String errorCode,
            String result, Instant at) {
        String update = "update rz_run_action a set outcome = ?, error_code = ?, result = ?, ended_at = ?, "
                + "answer_by = null";
        String where = "a.run_id = ? and a.invocation_id = ? and a.answer_by is not null and a.outcome is null";
        Object[] params = {outcome, errorCode, result, ts(at), runId, invocationId};
        Optional<Action> settled = switch (dialect) {
            case POSTGRESQL -> jdbc.sql(update + " from rz_run r where " + where + " and r.id = a.run_id"
                            + SETTLED_WITH_RUN)
                    .params(params).query((rs, n) -> {
                        Action action = action(rs);
                        reads.put(runKey(runId), Optional.of(run(rs, 11)));
                        return action;
                    }).optional();
            case H2 -> jdbc.sql("select " + ACTION_COLUMNS + " from final table (" + update + " where " + where + ")")
                    .params(params).query((rs, n) -> action(rs)).optional();
        };
        if (settled.isPresent() && settled.get().index() == 0) {
            reads.put(actionsKey(runId), List.of(settled.get()));
        } else {
            reads.forget(actionsKey(runId));
        }
        return settled;
    }

    /** Detached actions whose answer is overdue at {@code now}, oldest first. */
    List<Overdue> overdue(Instant now, int limit) {
        return overdueBy("answer_by", now, limit);
    }

    void actionEnded(String runId, int index, String verdict, String outcome, String errorCode, String result,
            Instant at) {
        // the column keeps microseconds: the transaction's copy of the actions keeps what a read would
        Instant stored = at.truncatedTo(ChronoUnit.MICROS);
        int ended = jdbc.sql("update rz_run_action set verdict = coalesce(?, verdict), outcome = ?, error_code = ?, "
                        + "result = ?, ended_at = ?, awaited_by = null where run_id = ? and idx = ? and outcome is null")
                .params(verdict, outcome, errorCode, result, ts(stored), runId, index).update();
        if (ended == 1) {
            changeAction(runId, index, action -> action.ended(verdict, outcome, errorCode, result, stored));
        } else {
            reads.forget(actionsKey(runId));
        }
    }

    private void changeAction(String runId, int index, java.util.function.UnaryOperator<Action> change) {
        reads.<List<Action>>change(actionsKey(runId), actions -> actions.stream()
                .map(action -> action.index() == index ? change.apply(action) : action).toList());
    }

    public List<Action> actions(String runId) {
        return reads.get(actionsKey(runId), () -> List.copyOf(jdbc.sql("select " + ACTION_COLUMNS
                        + " from rz_run_action where run_id = ? order by idx")
                .param(runId).query((rs, n) -> action(rs)).list()));
    }

    /** An action's row, {@link #ACTION_COLUMNS} in that order from the first. */
    private static Action action(ResultSet rs) throws SQLException {
        return new Action(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getString(8), rs.getString(9), instant(rs.getTimestamp(10)),
                instant(rs.getTimestamp(11)));
    }

    private static String runKey(String runId) {
        return "rz_run:" + runId;
    }

    private static String actionsKey(String runId) {
        return "rz_run_action:" + runId;
    }

    void decide(String id, String agentId, String ownerId, String eventId, String triggerKind, String reason,
            String detail, String runId, Instant at) {
        jdbc.sql("insert into rz_decision(id, agent_id, owner_id, event_id, trigger_kind, reason, detail, run_id, "
                        + "decided_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(id, agentId, ownerId, eventId, triggerKind, reason,
                        detail == null || detail.length() <= 500 ? detail : detail.substring(0, 500), runId, ts(at))
                .update();
    }

    public List<Decision> decisions(String agentId, int limit) {
        return jdbc.sql("select id, event_id, trigger_kind, reason, detail, run_id, decided_at from rz_decision "
                        + "where agent_id = ? order by decided_at desc limit ?")
                .params(agentId, limit)
                .query(RunStore::decision)
                .list();
    }

    /**
     * What an analyst filters finished runs by; null fields do not filter. {@code after}: the
     * last run of the previous page (newest first by creation, then id).
     */
    public record FinishedQuery(String agentId, String gadgetId, java.util.List<String> statuses, Instant from,
            Instant to, Instant afterCreatedAt, String afterId, int limit) {
    }

    /** A finished run with its agent's name, as the analysts' run history lists it. */
    public record Finished(Run run, String agentName, String kind) {
    }

    /**
     * Finished runs of every owner (ended, whatever their status), newest first. A run concerns a
     * gadget when its event came from it or one of its actions went to it.
     */
    public List<Finished> finished(FinishedQuery query) {
        StringBuilder sql = new StringBuilder("select r.id, r.agent_id, r.owner_id, r.revision, r.trigger_kind, "
                + "r.trigger_data, r.event_id, r.proactive, r.status, r.reason, r.created_at, r.started_at, r.ended_at, "
                + "a.name as agent_name, case when exists (select 1 from rz_llm_turn t where t.run_id = r.id) then 'llm' "
                + "else 'rules' end as agent_kind "
                + "from rz_run r left join rz_agent a on a.id = r.agent_id where r.ended_at is not null");
        List<Object> params = new java.util.ArrayList<>();
        if (query.agentId() != null) {
            sql.append(" and r.agent_id = ?");
            params.add(query.agentId());
        }
        if (query.gadgetId() != null) {
            sql.append(" and (exists (select 1 from rz_run_action ra where ra.run_id = r.id and ra.gadget_id = ?) "
                    + "or exists (select 1 from rz_event e where e.id = r.event_id and e.gadget_id = ?))");
            params.add(query.gadgetId());
            params.add(query.gadgetId());
        }
        if (query.statuses() != null && !query.statuses().isEmpty()) {
            sql.append(" and r.status in (").append(String.join(", ",
                    java.util.Collections.nCopies(query.statuses().size(), "?"))).append(")");
            params.addAll(query.statuses());
        }
        if (query.from() != null) {
            sql.append(" and r.created_at >= ?");
            params.add(ts(query.from()));
        }
        if (query.to() != null) {
            sql.append(" and r.created_at < ?");
            params.add(ts(query.to()));
        }
        if (query.afterCreatedAt() != null) {
            sql.append(" and (r.created_at < ? or (r.created_at = ? and r.id < ?))");
            params.add(ts(query.afterCreatedAt()));
            params.add(ts(query.afterCreatedAt()));
            params.add(query.afterId());
        }
        sql.append(" order by r.created_at desc, r.id desc limit ?");
        params.add(query.limit());
        return jdbc.sql(sql.toString()).params(params)
                .query((rs, n) -> new Finished(map(rs, n), rs.getString("agent_name"), rs.getString("agent_kind")))
                .list();
    }

    /** The ledger's entries that started or named this run. */
    public List<Decision> decisionsOfRun(String runId) {
        return jdbc.sql("select id, event_id, trigger_kind, reason, detail, run_id, decided_at from rz_decision "
                        + "where run_id = ? order by decided_at")
                .param(runId)
                .query(RunStore::decision)
                .list();
    }

    int pruneDecisions(Instant olderThan) {
        return jdbc.sql("delete from rz_decision where decided_at < ?").param(ts(olderThan)).update();
    }

    private static Decision decision(ResultSet rs, int n) throws SQLException {
        return new Decision(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), instant(rs.getTimestamp(7)));
    }

    /** A run's row, {@link #RUN_COLUMNS} in that order from column {@code from} + 1. */
    private static Run run(ResultSet rs, int from) throws SQLException {
        return new Run(rs.getString(from + 1), rs.getString(from + 2), rs.getString(from + 3), rs.getInt(from + 4),
                rs.getString(from + 5), rs.getString(from + 6), rs.getString(from + 7), rs.getBoolean(from + 8),
                RunStatus.fromWire(rs.getString(from + 9)), rs.getString(from + 10),
                instant(rs.getTimestamp(from + 11)), instant(rs.getTimestamp(from + 12)),
                instant(rs.getTimestamp(from + 13)));
    }

    /** A row of {@link #RUN_COLUMNS}, as every read of runs selects them. */
    private static Run map(ResultSet rs, int n) throws SQLException {
        return run(rs, 0);
    }

    /** A reason as its column holds it (at most 200 characters; the run's own records say the rest). */
    private static String reasonColumn(String reason) {
        return reason == null || reason.length() <= 200 ? reason : reason.substring(0, 199) + "…";
    }

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
