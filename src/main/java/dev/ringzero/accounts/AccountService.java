package dev.ringzero.accounts;

import java.time.Instant;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.ringzero.accounts.Caller.Role;
import dev.ringzero.Refusal;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Accounts and API credentials. An account is also a Camunda user (Tasklist, Cockpit); its
 * API token is returned once and stored only as a hash.
 */
@Service
public class AccountService {

    private static final Pattern ACCOUNT_ID = Pattern.compile("^[a-z0-9][a-z0-9._-]{1,63}$");

    private final JdbcClient jdbc;
    private final LoginDirectory logins;

    AccountService(JdbcClient jdbc, LoginDirectory logins) {
        this.jdbc = jdbc;
        this.logins = logins;
    }

    public record NewAccount(String id, String token) {
    }

    @Transactional
    public NewAccount create(String id, String password, String displayName, Role role) {
        if (id == null || !ACCOUNT_ID.matcher(id).matches()) {
            throw Refusal.invalid("invalid-account-id",
                    "id must be 2-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit");
        }
        if (password == null || password.length() < 8) {
            throw Refusal.invalid("weak-password", "password must have at least 8 characters");
        }
        if (role != Role.OWNER && role != Role.ANALYST) {
            throw Refusal.invalid("invalid-role", "role must be owner or analyst");
        }
        if (exists(id) || logins.userExists(id)) {
            throw Refusal.conflict("account-exists", "account '" + id + "' already exists");
        }
        jdbc.sql("insert into rz_account(id, display_name, role, created_at) values (?, ?, ?, ?)")
                .params(id, displayName == null || displayName.isBlank() ? id : displayName, role.name(), now())
                .update();
        logins.createUser(id, password, displayName == null ? id : displayName, role);
        return new NewAccount(id, issueToken(id, role));
    }

    /** A credential that can call only the event-admission route (external gateways). */
    @Transactional
    public String issueServiceToken(Role role) {
        if (role != Role.GATEWAY) {
            throw Refusal.invalid("invalid-role", "service tokens exist for role 'gateway' only");
        }
        return issueToken(null, role);
    }

    public Optional<Caller> authenticate(String token) {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        return jdbc.sql("select account_id, role from rz_api_token where token_hash = ?")
                .param(Tokens.sha256(token))
                .query((rs, n) -> new Caller(rs.getString(1), Role.valueOf(rs.getString(2))))
                .optional();
    }

    /** A signed-in session: a fresh API token of the account, as {@code POST /api/v1/sign-in} hands it out. */
    public record Session(String accountId, Role role, String token) {
    }

    /**
     * Signs an owner or analyst in with the password they log in to Tasklist and Cockpit with: a
     * fresh token of their own, for the automations page. A wrong id and a wrong password look the
     * same. The administrator has no automations and keeps to HTTP Basic on the admin routes.
     */
    @Transactional
    public Session signIn(String id, String password) {
        if (id == null || password == null || !ACCOUNT_ID.matcher(id).matches() || !logins.checkPassword(id, password)) {
            throw new Refusal(Refusal.Kind.UNAUTHENTICATED, "unauthorized", "wrong account id or password");
        }
        Role role = jdbc.sql("select role from rz_account where id = ?").param(id).query(String.class).optional()
                .map(Role::valueOf)
                .orElseThrow(() -> new Refusal(Refusal.Kind.UNAUTHENTICATED, "unauthorized",
                        "wrong account id or password"));
        if (role != Role.OWNER && role != Role.ANALYST) {
            throw Refusal.forbidden("forbidden", "only owners and analysts sign in here; the administrator uses "
                    + "HTTP Basic on /api/v1/admin and the Camunda webapps");
        }
        return new Session(id, role, issueToken(id, role));
    }

    /** Forgets one token (signing out): it authenticates nothing afterwards. */
    @Transactional
    public void revoke(String token) {
        jdbc.sql("delete from rz_api_token where token_hash = ?").param(Tokens.sha256(token)).update();
    }

    /** The role an account was created with, if it exists. */
    public Optional<Role> roleOf(String id) {
        return jdbc.sql("select role from rz_account where id = ?").param(id).query(String.class).optional()
                .map(Role::valueOf);
    }

    public boolean exists(String id) {
        return jdbc.sql("select count(*) from rz_account where id = ?").param(id).query(Integer.class).single() > 0;
    }

    private String issueToken(String accountId, Role role) {
        String token = Tokens.newSecret("rz_");
        jdbc.sql("insert into rz_api_token(token_hash, account_id, role, created_at) values (?, ?, ?, ?)")
                .params(Tokens.sha256(token), accountId, role.name(), now())
                .update();
        return token;
    }

    private static java.sql.Timestamp now() {
        return java.sql.Timestamp.from(Instant.now());
    }
}
