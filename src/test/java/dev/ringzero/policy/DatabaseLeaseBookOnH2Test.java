package dev.ringzero.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import dev.ringzero.kernel.Lease;
import dev.ringzero.kernel.MoverLease;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import liquibase.integration.spring.SpringLiquibase;

/** The mover leases' SQL on the zero-setup default's H2, from its own changelog. */
class DatabaseLeaseBookOnH2Test {

    private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

    @Test
    void grantsRefusesStopsAndForgetsOnH2() throws Exception {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:mover-leases-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        SpringLiquibase liquibase = new SpringLiquibase();
        liquibase.setDataSource(dataSource);
        liquibase.setChangeLog("classpath:db/changelog/012-mover-leases.yaml");
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.afterPropertiesSet();
        DatabaseLeaseBook book = new DatabaseLeaseBook(JdbcClient.create(dataSource),
                new DataSourceTransactionManager(dataSource));
        MoverLease leases = new MoverLease(MoverLease.DEFAULT_MAX, book);

        assertThat(leases.acquire("rover", "a", Duration.ofSeconds(3), T0)).isEqualTo(new Lease.Granted("a", T0.plusSeconds(3)));
        assertThat(leases.acquire("rover", "b", Duration.ofSeconds(3), T0.plusSeconds(1)))
                .isEqualTo(new Lease.Busy("a", T0.plusSeconds(3)));
        assertThat(leases.holder("rover", T0.plusSeconds(2))).contains("a");
        assertThat(leases.stop("rover", T0.plusSeconds(2))).contains("a");
        assertThat(leases.holder("rover", T0.plusSeconds(2))).isEmpty();
        assertThat(leases.acquire("rover", "b", Duration.ofSeconds(3), T0.plusSeconds(2))).isInstanceOf(Lease.Granted.class);
        assertThat(leases.release("rover", "a")).as("not a's any more").isFalse();
        assertThat(leases.release("rover", "b")).isTrue();
        assertThat(leases.holder("rover", T0.plusSeconds(2))).isEmpty();
    }
}
