package dev.ringzero.gateway;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts link messages the gateway refused (metric {@code ringzero.link.rejected}, tagged by
 * reason) and logs each gadget's refusals at most once a minute, so a misbehaving or hostile
 * device cannot flood the log.
 */
class LinkRejections {

    private static final Logger log = LoggerFactory.getLogger(LinkRejections.class);
    private static final Duration LOG_EVERY = Duration.ofMinutes(1);
    private static final int MAX_REMEMBERED = 10_000;

    private final MeterRegistry meters;
    private final Clock clock;
    private final Map<String, Instant> lastLogged = new ConcurrentHashMap<>();

    LinkRejections(MeterRegistry meters, Clock clock) {
        this.meters = meters;
        this.clock = clock;
    }

    void reject(String gadgetId, String reason, String detail) {
        Counter.builder("ringzero.link.rejected").tag("reason", reason)
                .description("link messages refused by the gateway").register(meters).increment();
        Instant now = clock.instant();
        String key = gadgetId + "/" + reason;
        Instant last = lastLogged.get(key);
        if (last == null || !now.isBefore(last.plus(LOG_EVERY))) {
            if (lastLogged.size() > MAX_REMEMBERED) {
                lastLogged.clear();
            }
            lastLogged.put(key, now);
            log.warn("refused link message from '{}': {} ({}); further ones are counted, logged once a minute",
                    gadgetId, reason, detail);
        }
    }

    double count(String reason) {
        Counter counter = meters.find("ringzero.link.rejected").tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }
}
