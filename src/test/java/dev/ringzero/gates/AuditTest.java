package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import dev.ringzero.support.PlatformTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;

/** On PostgreSQL the audit log and the journal refuse to be rewritten, whatever the code tries. */
class AuditTest extends PlatformTest {

    @Autowired
    Audit audit;
    @Autowired
    Journal journal;
    @Autowired
    JdbcClient jdbc;

    @Test
    void theDatabaseRefusesToUpdateOrDeleteAuditRows() {
        audit.append("alice-audit", null, null, "gate-x", "email.send", Audit.Disposition.DENIED, "alice-audit", null,
                "no");

        assertThatExceptionOfType(DataAccessException.class).isThrownBy(() ->
                jdbc.sql("update rz_audit set disposition = 'approved' where owner_id = 'alice-audit'").update())
                .withMessageContaining("append-only");
        assertThatExceptionOfType(DataAccessException.class).isThrownBy(() ->
                jdbc.sql("delete from rz_audit where owner_id = 'alice-audit'").update())
                .withMessageContaining("append-only");
        assertThatExceptionOfType(DataAccessException.class).isThrownBy(() ->
                jdbc.sql("truncate rz_audit").update());
        assertThat(audit.ofGate("gate-x")).extracting(Audit.Entry::disposition).containsExactly("denied");
    }

    @Test
    void theJournalIsAppendOnlyToo() {
        journal.note("agent-j", "alice-j", "run-1", "thinking about the digest");

        assertThatExceptionOfType(DataAccessException.class).isThrownBy(() ->
                jdbc.sql("update rz_journal set text = 'approved!' where agent_id = 'agent-j'").update());
        assertThat(journal.of("agent-j", 0, 10)).extracting(Journal.Entry::text)
                .containsExactly("thinking about the digest");
    }
}
