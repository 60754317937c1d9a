package dev.ringzero.policy;

import java.sql.Timestamp;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The sounds playing in the shared database ({@code rz_speaker_hold}): the device's end of playback
 * frees the speaker whichever node it reaches. Each call is a transaction of its own, as the
 * speaker book's changes are ({@link SpeakerFloor} says why).
 */
final class DatabaseSpeakerHolds implements SpeakerHolds {

    private final JdbcClient jdbc;
    private final TransactionTemplate own;

    DatabaseSpeakerHolds(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public void put(String invocationId, Hold hold) {
        Timestamp since = Timestamp.from(hold.since());
        own.executeWithoutResult(status -> {
            // an invocation is sent once; a second put of it replaces the first, as a map's would
            int replaced = jdbc.sql("update rz_speaker_hold set gadget_id = ?, ticket = ?, since = ? "
                            + "where invocation_id = ?")
                    .params(hold.gadgetId(), hold.ticket(), since, invocationId).update();
            if (replaced == 0) {
                jdbc.sql("insert into rz_speaker_hold(invocation_id, gadget_id, ticket, since) values (?, ?, ?, ?)")
                        .params(invocationId, hold.gadgetId(), hold.ticket(), since).update();
            }
        });
    }

    @Override
    public Optional<Hold> take(String invocationId) {
        return own.execute(status -> {
            Optional<Hold> hold = jdbc.sql("select gadget_id, ticket, since from rz_speaker_hold where invocation_id = ?")
                    .param(invocationId)
                    .query((rs, n) -> new Hold(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()))
                    .optional();
            if (hold.isEmpty()) {
                return hold;
            }
            // two nodes may both read it (a retried answer); only the one whose delete counts takes it
            int taken = jdbc.sql("delete from rz_speaker_hold where invocation_id = ?").param(invocationId).update();
            return taken == 1 ? hold : Optional.<Hold>empty();
        });
    }

    @Override
    public void forgetBefore(java.time.Instant limit) {
        own.executeWithoutResult(status -> jdbc.sql("delete from rz_speaker_hold where since < ?")
                .param(Timestamp.from(limit)).update());
    }
}
