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
}
