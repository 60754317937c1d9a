package dev.ringzero.accounts;

import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Creates the bootstrap account {@code admin} on first start. Its password comes from
 * {@code RINGZERO_ADMIN_PASSWORD}; without it a random one is generated and printed once.
 * Only the demo profile has a known password.
 */
@Component
class AdminBootstrap {

    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);
    static final String ADMIN = "admin";

    private final LoginDirectory logins;
    private final JdbcClient jdbc;
    private final String configuredPassword;
    private final String demoPassword;

    AdminBootstrap(LoginDirectory logins, JdbcClient jdbc,
            @Value("${RINGZERO_ADMIN_PASSWORD:}") String configuredPassword,
            @Value("${ringzero.admin.demo-password:}") String demoPassword) {
        this.logins = logins;
        this.jdbc = jdbc;
        this.configuredPassword = configuredPassword;
        this.demoPassword = demoPassword;
    }

    @EventListener(ApplicationReadyEvent.class)
    @Order(0)
    @Transactional
    public void bootstrap() {
        logins.ensureGroups();
        if (logins.userExists(ADMIN)) {
            return;
        }
        String password = !configuredPassword.isBlank() ? configuredPassword
                : !demoPassword.isBlank() ? demoPassword : null;
        if (password == null) {
            password = Tokens.newSecret("").substring(0, 20);
            log.warn("""

                    ==========================================================
                     RingZero bootstrap admin created (shown once):
                       user: {}   password: {}
                     Set RINGZERO_ADMIN_PASSWORD to choose it yourself.
                    ==========================================================""", ADMIN, password);
        }
        logins.createUser(ADMIN, password, "Administrator", Caller.Role.ADMIN);
        jdbc.sql("insert into rz_account(id, display_name, role, created_at) values (?, ?, ?, ?)")
                .params(ADMIN, "Administrator", Caller.Role.ADMIN.name(), java.sql.Timestamp.from(Instant.now()))
                .update();
    }
}
