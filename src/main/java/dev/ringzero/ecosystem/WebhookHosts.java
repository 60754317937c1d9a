package dev.ringzero.ecosystem;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import dev.ringzero.Refusal;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Where {@code webhook.post} may go: the platform's {@code ringzero.webhook.allowed-hosts} plus the
 * hosts each owner added ({@code rz_webhook_host}). An entry is a host name or address, or
 * {@code *.example.org} for its subdomains (not the apex); ports and schemes are not part of it.
 */
@Component
class WebhookHosts {

    private static final Pattern HOST = Pattern.compile("^(\\*\\.)?[a-z0-9]([a-z0-9-]{0,62})(\\.[a-z0-9]([a-z0-9-]{0,62}))*$");

    private final JdbcClient jdbc;
    private final List<String> platformHosts;
    private final Clock clock;

    WebhookHosts(JdbcClient jdbc, @Value("${ringzero.webhook.allowed-hosts:}") List<String> platformHosts,
            Clock clock) {
        this.jdbc = jdbc;
        this.platformHosts = platformHosts.stream().map(String::trim).filter(host -> !host.isEmpty())
                .map(host -> host.toLowerCase(Locale.ROOT)).toList();
        this.clock = clock;
    }

    boolean allowed(String ownerId, String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return effective(ownerId).stream().anyMatch(entry -> matches(entry, lower));
    }

    List<String> effective(String ownerId) {
        List<String> hosts = new ArrayList<>(platformHosts);
        hosts.addAll(own(ownerId));
        return hosts;
    }

    List<String> own(String ownerId) {
        return jdbc.sql("select host from rz_webhook_host where owner_id = ? order by host").param(ownerId)
                .query(String.class).list();
    }

    List<String> platform() {
        return platformHosts;
    }

    String add(String ownerId, String host) {
        String normal = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        if (normal.length() > 253 || !HOST.matcher(normal).matches()) {
            throw Refusal.invalid("invalid-host", "host must be a host name or address such as "
                    + "hooks.example.org, 127.0.0.1 or *.example.org (no scheme, port or path)");
        }
        int exists = jdbc.sql("select count(*) from rz_webhook_host where owner_id = ? and host = ?")
                .params(ownerId, normal).query(Integer.class).single();
        if (exists == 0) {
            jdbc.sql("insert into rz_webhook_host(owner_id, host, created_at) values (?, ?, ?)")
                    .params(ownerId, normal, Timestamp.from(clock.instant())).update();
        }
        return normal;
    }

    boolean remove(String ownerId, String host) {
        return jdbc.sql("delete from rz_webhook_host where owner_id = ? and host = ?")
                .params(ownerId, host.toLowerCase(Locale.ROOT)).update() == 1;
    }

    private static boolean matches(String entry, String host) {
        return entry.startsWith("*.") ? host.endsWith(entry.substring(1)) : entry.equals(host);
    }
}
