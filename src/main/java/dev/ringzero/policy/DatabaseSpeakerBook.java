package dev.ringzero.policy;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.SpeakerBook;
import dev.ringzero.kernel.SpeakerState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The gadgets' speakers in the shared database ({@code rz_speaker_line}, a row per gadget that
 * ever spoke, its {@link SpeakerState} as JSON): every node of a cluster reads and changes the same
 * state under the row's lock, so two nodes never give one speaker to two sounds. A change is a
 * transaction of its own, as {@link DatabaseLeaseBook}'s are, for the reasons {@link SpeakerFloor}
 * gives. {@code held_since} repeats the state's, so a sweep finds speakers held too long without
 * reading every row.
 */
final class DatabaseSpeakerBook implements SpeakerBook {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSpeakerBook.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JdbcClient jdbc;
    private final TransactionTemplate own;

    DatabaseSpeakerBook(JdbcClient jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.own = new TransactionTemplate(transactions);
        this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @Override
    public Optional<SpeakerState> change(String gadgetId, UnaryOperator<Optional<SpeakerState>> change) {
        try {
            return own.execute(status -> changeLocked(gadgetId, change));
        } catch (DuplicateKeyException raced) {
            // another node wrote the gadget's first row meanwhile: it exists now, and is locked this time
            return own.execute(status -> changeLocked(gadgetId, change));
        }
    }

    private Optional<SpeakerState> changeLocked(String gadgetId, UnaryOperator<Optional<SpeakerState>> change) {
        Optional<Optional<SpeakerState>> row = jdbc.sql("select state from rz_speaker_line where gadget_id = ? "
                        + "for update")
                .param(gadgetId).query((rs, n) -> state(gadgetId, rs.getString(1))).optional();
        Optional<SpeakerState> was = row.flatMap(state -> state);
        Optional<SpeakerState> next = change.apply(was);
        if (next.equals(was)) {
            return was;
        }
        String text = next.map(DatabaseSpeakerBook::json).orElse(null);
        Timestamp heldSince = next.map(SpeakerState::heldSince).map(Timestamp::from).orElse(null);
        if (row.isPresent()) {
            jdbc.sql("update rz_speaker_line set state = ?, held_since = ? where gadget_id = ?")
                    .params(text, heldSince, gadgetId).update();
        } else {
            jdbc.sql("insert into rz_speaker_line(gadget_id, state, held_since) values (?, ?, ?)")
                    .params(gadgetId, text, heldSince).update();
        }
        return was;
    }

    @Override
    public Optional<SpeakerState> read(String gadgetId) {
        return jdbc.sql("select state from rz_speaker_line where gadget_id = ?").param(gadgetId)
                .query((rs, n) -> state(gadgetId, rs.getString(1))).optional().flatMap(state -> state);
    }

    @Override
    public List<String> heldBefore(Instant limit) {
        return jdbc.sql("select gadget_id from rz_speaker_line where held_since < ?").param(Timestamp.from(limit))
                .query(String.class).list();
    }

    static String json(SpeakerState state) {
        ObjectNode node = JSON.createObjectNode();
        node.put("holder", state.holder());
        node.put("heldSince", state.heldSince() == null ? null : state.heldSince().toString());
        node.put("interaction", state.interaction());
        node.put("arrivals", state.arrivals());
        ArrayNode waiting = node.putArray("waiting");
        for (SpeakerState.Waiting entry : state.waiting()) {
            waiting.addObject().put("ticket", entry.ticket()).put("priority", entry.priority().name())
                    .put("requestedAt", entry.requestedAt().toString()).put("arrival", entry.arrival());
        }
        return node.toString();
    }

    /**
     * The state a row records; none for a free speaker. A state this version cannot read (written
     * by another one) counts as a free speaker rather than silencing the gadget for good: its
     * waiters wake no more and time out as the waiters of a restarted node do.
     */
    static Optional<SpeakerState> state(String gadgetId, String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            JsonNode node = JSON.readTree(text);
            List<SpeakerState.Waiting> waiting = new ArrayList<>();
            for (JsonNode entry : node.path("waiting")) {
                waiting.add(new SpeakerState.Waiting(entry.path("ticket").asText(),
                        Priority.valueOf(entry.path("priority").asText()),
                        Instant.parse(entry.path("requestedAt").asText()), entry.path("arrival").asLong()));
            }
            return Optional.of(new SpeakerState(node.path("holder").textValue(),
                    node.path("heldSince").isTextual() ? Instant.parse(node.path("heldSince").asText()) : null,
                    node.path("interaction").asBoolean(), waiting, node.path("arrivals").asLong()));
        } catch (JsonProcessingException | RuntimeException unreadable) {
            LOG.warn("speaker state of {} unreadable, taken as free: {}", gadgetId, unreadable.toString());
            return Optional.empty();
        }
    }
}
