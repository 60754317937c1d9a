package dev.ringzero;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.DefaultBootstrapContext;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

class DatabaseLockCheckTest {

    private final DatabaseLockCheck underTest = new DatabaseLockCheck();

    @Test
    void theDefaultShapesUrlNamesItsMvDbFileAndOtherDatabasesNone() {
        assertThat(DatabaseLockCheck.h2File("jdbc:h2:file:./data/ringzero;DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0"))
                .isEqualTo(Path.of("data/ringzero.mv.db").toAbsolutePath().normalize());
        assertThat(DatabaseLockCheck.h2File("jdbc:h2:/srv/rz/db")).isEqualTo(Path.of("/srv/rz/db.mv.db"));
        assertThat(DatabaseLockCheck.h2File("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1")).isNull();
        assertThat(DatabaseLockCheck.h2File("jdbc:h2:tcp://host/db")).isNull();
        assertThat(DatabaseLockCheck.h2File("jdbc:postgresql://127.0.0.1:5432/ringzero")).isNull();
        assertThat(DatabaseLockCheck.h2File(null)).isNull();
    }

    @Test
    void aFileLockedByAnotherProcessStopsTheStartBeforeAnythingOpensIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ringzero.mv.db");
        Files.writeString(file, "");
        // another process holds the lock the way H2 does (an OS lock on the whole file)
        Process holder = new ProcessBuilder("python3", "-c", "import fcntl,sys,time\n"
                + "f=open(sys.argv[1],'r+b'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
                file.toString()).redirectErrorStream(true).start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(6))).isEqualTo("locked");

            assertThatExceptionOfType(DatabaseLockCheck.DatabaseLockedException.class)
                    .isThrownBy(() -> underTest.onApplicationEvent(prepared("jdbc:h2:file:" + dir.resolve("ringzero"))))
                    .satisfies(e -> assertThat(new DatabaseLockedFailureAnalyzer().analyze(e).getDescription())
                            .startsWith("The database is locked: another process has " + file));
        } finally {
            holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThatNoException().isThrownBy(() -> underTest.onApplicationEvent(prepared("jdbc:h2:file:"
                + dir.resolve("ringzero"))));
    }

    @Test
    void h2sOwnAlreadyInUseErrorIsExplainedTheSameWayAndOtherFailuresAreNot() {
        var analyzer = new DatabaseLockedFailureAnalyzer();
        var inUse = new IllegalStateException("pool", new SQLException("Database may be already in use: \"x.mv.db\"\nmore",
                "90020", DatabaseLockedFailureAnalyzer.H2_DATABASE_ALREADY_OPEN));

        assertThat(analyzer.analyze(inUse).getDescription())
                .isEqualTo("The database is locked: another process has the H2 file open (Database may be already "
                        + "in use: \"x.mv.db\").");
        assertThat(analyzer.analyze(new SQLException("connection refused", "08001", 0))).isNull();
    }

    private static ApplicationEnvironmentPreparedEvent prepared(String url) {
        MockEnvironment environment = new MockEnvironment().withProperty("spring.datasource.url", url);
        return new ApplicationEnvironmentPreparedEvent(new DefaultBootstrapContext(), new SpringApplication(),
                new String[0], environment);
    }
}
