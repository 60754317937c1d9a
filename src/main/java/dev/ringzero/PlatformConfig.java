package dev.ringzero;

import java.time.Clock;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Platform-wide beans that belong to no single ring. */
@Configuration
class PlatformConfig {

    /** One clock for the platform, so tests can move time instead of waiting. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** PostgreSQL or H2: which of a few statements' two forms to take (see {@link SqlDialect}). */
    @Bean
    SqlDialect sqlDialect(javax.sql.DataSource dataSource) {
        return SqlDialect.of(dataSource);
    }
}
