package dev.ringzero.policy;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

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
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The gadgets' speakers in the shared database ({@code rz_speaker_line}, a row per gadget that
 * ever spoke, its {@link SpeakerState} as JSON): every node of a cluster reads and changes the same
 * state under the row's lock, so two nodes never give one speaker to two sounds. A change is a
 * transaction of its own ({@link DatabaseBook}), for the reasons {@link SpeakerFloor} gives.
 * {@code held_since} repeats the state's, so a sweep finds speakers held too long without reading
 * every row.
 */
final class DatabaseSpeakerBook extends DatabaseBook<SpeakerState> implements SpeakerBook {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSpeakerBook.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    DatabaseSpeakerBook(JdbcClient jdbc, PlatformTransactionManager transactions) {
        super(jdbc, transactions, "rz_speaker_line", "state", "held_since");
    }

    @Override
    Optional<SpeakerState> entry(String gadgetId, ResultSet row) throws SQLException {
        return state(gadgetId, row.getString(1));
    }

    @Override
    List<Object> values(Optional<SpeakerState> state) {
        return Arrays.asList(state.map(DatabaseSpeakerBook::json).orElse(null),
                state.map(SpeakerState::heldSince).map(Timestamp::from).orElse(null));
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
