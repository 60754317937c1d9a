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
 * Only the demo profile has a known password. Later starts keep the administrator's password and
 * say so when {@code RINGZERO_ADMIN_PASSWORD} is set; {@code RINGZERO_ADMIN_PASSWORD_RESET=true}
 * sets it to {@code RINGZERO_ADMIN_PASSWORD} (the documented way back in for a locked-out operator).
 */
@Component
class AdminBootstrap {

    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);
    static final String ADMIN = "admin";

    private final LoginDirectory logins;
    private final JdbcClient jdbc;
    private final String configuredPassword;
    private final String demoPassword;
    private final boolean reset;

    AdminBootstrap(LoginDirectory logins, JdbcClient jdbc,
            @Value("${RINGZERO_ADMIN_PASSWORD:}") String configuredPassword,
            @Value("${ringzero.admin.demo-password:}") String demoPassword,
            @Value("${RINGZERO_ADMIN_PASSWORD_RESET:false}") boolean reset) {
        this.reset = reset;
        this.logins = logins;
        this.jdbc = jdbc;
        this.configuredPassword = configuredPassword;
        this.demoPassword = demoPassword;
    }

    /** The administrator exists: its password stays, unless the operator asked for a reset. */
    private void keepOrReset() {
        if (configuredPassword.isBlank()) {
            if (reset) {
                log.warn("RINGZERO_ADMIN_PASSWORD_RESET is set without RINGZERO_ADMIN_PASSWORD: nothing was reset");
            }
            return;
        }
        if (reset) {
            logins.setPassword(ADMIN, configuredPassword);
            log.warn("the administrator's password was reset from RINGZERO_ADMIN_PASSWORD "
                    + "(RINGZERO_ADMIN_PASSWORD_RESET); unset the reset flag for the next start");
        } else {
            log.info("RINGZERO_ADMIN_PASSWORD is ignored: the administrator was created at the first start and "
                    + "keeps its password; start once with RINGZERO_ADMIN_PASSWORD_RESET=true to set it");
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    @Order(0)
    @Transactional
    public void bootstrap() {
        logins.ensureGroups();
        if (logins.userExists(ADMIN)) {
            keepOrReset();
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
