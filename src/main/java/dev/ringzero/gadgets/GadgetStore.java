package dev.ringzero.gadgets;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import dev.ringzero.TransactionReads;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The gadget table: pairing, credentials (hashed), presence and the last valid registration. */
// a plain component: JdbcClient already throws DataAccessException, and @Repository's translating
// proxy would cost every read of the run path a reflective call
@Component
public class GadgetStore {

    /** One row of {@code rz_gadget}. */
    public record Row(String id, String ownerId, String name, String credentialHash, boolean paired, boolean online,
            Instant lastSeen, String registration, Instant registeredAt, Instant pairedAt, String quietFrom,
            String quietTo, String quietZone) {
    }

    private static final String COLUMNS = "id, owner_id, name, credential_hash, paired, online, last_seen, "
            + "registration, registered_at, paired_at, quiet_from, quiet_to, quiet_zone";

    /** A paired gadget as the link sees it: whose it is. */
    public record Pairing(String gadgetId, String ownerId) {
    }

    private record CachedPairing(Pairing pairing, long until) {
    }

    private final JdbcClient jdbc;
    private final TransactionReads reads;
    /** How long the link trusts a pairing it read; see {@link #pairing}. */
    private final long pairingTtlNanos;
    private final java.util.Map<String, CachedPairing> pairings = new java.util.concurrent.ConcurrentHashMap<>();

    GadgetStore(JdbcClient jdbc, TransactionReads reads,
            @org.springframework.beans.factory.annotation.Value("${ringzero.link.pairing-ttl:PT5S}")
            java.time.Duration pairingTtl) {
        this.jdbc = jdbc;
        this.reads = reads;
        this.pairingTtlNanos = pairingTtl.toNanos();
    }

    /**
     * The gadget's pairing, for the link's check of every message it sends: read from the
     * database at most once per {@code ringzero.link.pairing-ttl} (5 s) per gadget, not once per
     * message. Pairing and unpairing on this node are seen at once (a check that read the old row
     * while the write committed may keep it for the TTL); on another node of a cluster within the
     * TTL. Unpairing also takes the gadget's login off the broker, and dispatch reads the gadget
     * afresh. Only paired gadgets are remembered, so an unknown id costs a read each time and
     * takes no memory.
     */
    public Optional<Pairing> pairing(String id) {
        long now = System.nanoTime();
        CachedPairing cached = pairings.get(id);
        if (cached != null && now - cached.until() < 0) {
            return Optional.of(cached.pairing());
        }
        return remembered(id, read(id), now);
    }

    /** The pairing {@code row} says, remembered for the TTL from {@code readAt} (forgotten if none). */
    private Optional<Pairing> remembered(String id, Optional<Row> row, long readAt) {
        Optional<Pairing> pairing = row.filter(Row::paired).map(found -> new Pairing(found.id(), found.ownerId()));
        pairing.ifPresentOrElse(found -> pairings.put(id, new CachedPairing(found, readAt + pairingTtlNanos)),
                () -> pairings.remove(id));
        return pairing;
    }

    /**
     * Read once per transaction: a run asks about its gadget at admission, at dispatch and after.
     * The row read is as fresh as the link's own read would be, so it renews the pairing the link
     * remembers: a gadget its agents command never costs the link a read of its own.
     */
    public Optional<Row> find(String id) {
        return reads.get(key(id), () -> {
            long now = System.nanoTime();
            Optional<Row> row = read(id);
            remembered(id, row, now);
            return row;
        });
    }

    private Optional<Row> read(String id) {
        return jdbc.sql("select " + COLUMNS + " from rz_gadget where id = ?").param(id).query(GadgetStore::map)
                .optional();
    }

    private static String key(String id) {
        return "gadget:" + id;
    }

    public List<Row> listPaired(String ownerId) {
        return jdbc.sql("select " + COLUMNS + " from rz_gadget where owner_id = ? and paired order by id")
                .param(ownerId).query(GadgetStore::map).list();
    }

    /** Inserts a new pairing, or re-pairs an id whose earlier pairing ended; false if it is paired now. */
    boolean pair(String id, String ownerId, String name, String credentialHash, Instant at) {
        reads.forget(key(id));
        Optional<Row> existing = read(id);
        if (existing.isPresent() && existing.get().paired()) {
            return false;
        }
        boolean paired;
        if (existing.isPresent()) {
            paired = jdbc.sql("update rz_gadget set owner_id = ?, name = ?, credential_hash = ?, paired = true, "
                            + "online = false, last_seen = null, registration = null, registered_at = null, "
                            + "paired_at = ? where id = ? and not paired")
                    .params(ownerId, name, credentialHash, ts(at), id).update() == 1;
        } else {
            paired = jdbc.sql("insert into rz_gadget(id, owner_id, name, credential_hash, paired, online, paired_at) "
                            + "values (?, ?, ?, ?, true, false, ?)")
                    .params(id, ownerId, name, credentialHash, ts(at)).update() == 1;
        }
        forgetPairing(id);
        return paired;
    }

    /** Locks the gadget's row (until the transaction ends) if it exists and is unpaired. */
    boolean lockUnpaired(String id) {
        return jdbc.sql("select id from rz_gadget where id = ? and not paired for update").param(id)
                .query(String.class).optional().isPresent();
    }

    boolean unpair(String id) {
        reads.forget(key(id));
        boolean unpaired = jdbc.sql("update rz_gadget set paired = false, online = false where id = ? and paired")
                .param(id).update() == 1;
        forgetPairing(id);
        return unpaired;
    }

    /**
     * After a write of the pairing, and again once it commits: a link read racing the write
     * cannot leave the old pairing remembered.
     */
    private void forgetPairing(String id) {
        pairings.remove(id);
        if (org.springframework.transaction.support.TransactionSynchronizationManager.isSynchronizationActive()) {
            org.springframework.transaction.support.TransactionSynchronizationManager.registerSynchronization(
                    new org.springframework.transaction.support.TransactionSynchronization() {
                        @Override
                        public void afterCompletion(int status) {
                            pairings.remove(id);
                        }
                    });
        }
    }

    public void presence(String id, boolean online, Instant at) {
        reads.forget(key(id));
        jdbc.sql("update rz_gadget set online = ?, last_seen = ? where id = ? and paired")
                .params(online, ts(at), id).update();
    }

    public void register(String id, String registration, Instant at) {
        reads.forget(key(id));
        jdbc.sql("update rz_gadget set registration = ?, registered_at = ?, last_seen = ? where id = ? and paired")
                .params(registration, ts(at), ts(at), id).update();
    }

    public void quietHours(String id, String from, String to, String zone) {
        reads.forget(key(id));
        jdbc.sql("update rz_gadget set quiet_from = ?, quiet_to = ?, quiet_zone = ? where id = ?")
                .params(from, to, zone, id).update();
    }

    private static Row map(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getString("id"), rs.getString("owner_id"), rs.getString("name"),
                rs.getString("credential_hash"), rs.getBoolean("paired"), rs.getBoolean("online"),
                instant(rs.getTimestamp("last_seen")), rs.getString("registration"),
                instant(rs.getTimestamp("registered_at")), instant(rs.getTimestamp("paired_at")),
                rs.getString("quiet_from"), rs.getString("quiet_to"), rs.getString("quiet_zone"));
    }

    private static Instant instant(Timestamp ts) {
        return ts == null ? null : ts.toInstant();
    }

    private static Timestamp ts(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }
}
