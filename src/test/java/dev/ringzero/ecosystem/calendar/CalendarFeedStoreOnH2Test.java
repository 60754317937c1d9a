package dev.ringzero.ecosystem.calendar;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.DriverManager;
import java.time.Instant;
import java.time.ZoneId;

import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The zero-setup database (H2) gets the calendar table from the changelog, and the store works on
 * it as on PostgreSQL (where CalendarApiTest exercises it).
 */
class CalendarFeedStoreOnH2Test {

    private static final String URL = "jdbc:h2:mem:calendar-store;DB_CLOSE_DELAY=-1";
    private static CalendarFeedStore underTest;

    @BeforeAll
    static void database() throws Exception {
        Database database = DatabaseFactory.getInstance()
                .findCorrectDatabaseImplementation(new JdbcConnection(DriverManager.getConnection(URL, "sa", "")));
        try (Liquibase liquibase = new Liquibase("db/changelog/db.changelog-master.yaml",
                new ClassLoaderResourceAccessor(), database)) {
            liquibase.update("");
        }
        JdbcDataSource source = new JdbcDataSource();
        source.setURL(URL);
        source.setUser("sa");
        underTest = new CalendarFeedStore(JdbcClient.create(source));
    }

    @Test
    void aFeedIsStoredReplacedAndRemovedPerOwner() {
        Instant at = Instant.parse("2025-03-24T07:00:00.123456Z");
        CalendarFeed url = new CalendarFeed("https://example.org/a.ics", null, ZoneId.of("Europe/Berlin"), at);
        CalendarFeed file = new CalendarFeed(null, "team/a.ics", ZoneId.of("UTC"), at.plusSeconds(5));

        underTest.save("alice", url);
        underTest.save("bob", file);
        assertThat(underTest.find("alice")).hasValue(url);
        assertThat(underTest.find("bob")).hasValue(file);

        underTest.save("alice", file);
        assertThat(underTest.find("alice")).hasValue(file);

        assertThat(underTest.delete("alice")).isTrue();
        assertThat(underTest.delete("alice")).isFalse();
        assertThat(underTest.find("alice")).isEmpty();
        assertThat(underTest.find("bob")).hasValue(file);
    }
}
