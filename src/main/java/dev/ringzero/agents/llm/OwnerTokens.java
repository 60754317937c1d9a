package dev.ringzero.agents.llm;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.ringzero.SqlDialect;

/**
 * What each owner's model turns spent per UTC day ({@code rz_llm_owner_day}), for the daily token
 * budget ({@code ringzero.llm.daily-tokens-per-owner}). Every reply's tokens are added once, when
 * the reply is recorded, so the budget check reads one row; it used to sum every turn the owner
 * asked that day, a read that grew all day long and was paid before each turn.
 */
@Component
class OwnerTokens {

    private final JdbcClient jdbc;
    private final SqlDialect dialect;

    OwnerTokens(JdbcClient jdbc, SqlDialect dialect) {
        this.jdbc = jdbc;
        this.dialect = dialect;
    }

    /** Tokens the owner's turns spent on the UTC day of {@code at}. */
    long spentOn(String ownerId, Instant at) {
        return jdbc.sql("select coalesce(sum(tokens), 0) from rz_llm_owner_day where owner_id = ? and utc_day = ?")
                .params(ownerId, day(at)).query(Long.class).single();
    }

    /**
     * Adds the tokens of a reply to turn {@code turn} of {@code runId} (whose record names the
     * owner) to the owner's day. In a transaction it is the transaction's last statement: every
     * session of the owner adds to the same row, which the adding transaction holds until it ends,
     * so it holds it through its commit alone and not through the run's step that follows the reply.
     */
    void charge(String runId, int turn, int tokens, Instant at) {
        if (tokens <= 0) {
            return;
        }
        LocalDate day = day(at);
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            add(runId, turn, tokens, day);
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void beforeCommit(boolean readOnly) {
                add(runId, turn, tokens, day);
            }
        });
    }

    private void add(String runId, int turn, int tokens, LocalDate day) {
        if (dialect == SqlDialect.POSTGRESQL) {
            jdbc.sql("insert into rz_llm_owner_day(owner_id, utc_day, tokens) select owner_id, ?, ? from rz_llm_turn "
                            + "where run_id = ? and turn = ? on conflict (owner_id, utc_day) do update "
                            + "set tokens = rz_llm_owner_day.tokens + excluded.tokens")
                    .params(day, tokens, runId, turn).update();
            return;
        }
        // H2: a failed statement leaves its transaction usable, so a first row of the day that
        // another transaction inserted meanwhile is added to instead
        if (addTo(runId, turn, tokens, day) > 0) {
            return;
        }
        try {
            jdbc.sql("insert into rz_llm_owner_day(owner_id, utc_day, tokens) select owner_id, ?, ? from rz_llm_turn "
                    + "where run_id = ? and turn = ?").params(day, tokens, runId, turn).update();
        } catch (DuplicateKeyException firstOfTheDayMeanwhile) {
            addTo(runId, turn, tokens, day);
        }
    }

    private int addTo(String runId, int turn, int tokens, LocalDate day) {
        return jdbc.sql("update rz_llm_owner_day set tokens = tokens + ? where utc_day = ? and owner_id = "
                + "(select owner_id from rz_llm_turn where run_id = ? and turn = ?)")
                .params(tokens, day, runId, turn).update();
    }

    private static LocalDate day(Instant at) {
        return at.atZone(ZoneOffset.UTC).toLocalDate();
    }
}
