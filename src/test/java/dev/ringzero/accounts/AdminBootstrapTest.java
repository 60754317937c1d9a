package dev.ringzero.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Later starts keep the administrator's password, unless the operator resets it on purpose. */
class AdminBootstrapTest {

    private final Logins logins = new Logins();

    @Test
    void aConfiguredPasswordIsIgnoredOnceTheAdministratorExists() {
        logins.passwords.put(AdminBootstrap.ADMIN, "first-password");

        new AdminBootstrap(logins, null, "second-password", "", false).bootstrap();

        assertThat(logins.passwords).containsEntry(AdminBootstrap.ADMIN, "first-password");
    }

    @Test
    void theResetFlagSetsTheConfiguredPassword() {
        logins.passwords.put(AdminBootstrap.ADMIN, "forgotten");

        new AdminBootstrap(logins, null, "remembered", "", true).bootstrap();

        assertThat(logins.passwords).containsEntry(AdminBootstrap.ADMIN, "remembered");
    }

    @Test
    void theResetFlagWithoutAPasswordChangesNothing() {
        logins.passwords.put(AdminBootstrap.ADMIN, "kept");

        new AdminBootstrap(logins, null, "", "", true).bootstrap();

        assertThat(logins.passwords).containsEntry(AdminBootstrap.ADMIN, "kept");
    }

    private static final class Logins implements LoginDirectory {
        final Map<String, String> passwords = new HashMap<>();

        @Override
        public void ensureGroups() {
        }

        @Override
        public boolean userExists(String id) {
            return passwords.containsKey(id);
        }

        @Override
        public boolean checkPassword(String id, String password) {
            return password.equals(passwords.get(id));
        }

        @Override
        public boolean isAdministrator(String id) {
            return AdminBootstrap.ADMIN.equals(id);
        }

        @Override
        public void setPassword(String id, String password) {
            passwords.put(id, password);
        }

        @Override
        public void createUser(String id, String password, String displayName, Caller.Role role) {
            passwords.put(id, password);
        }
    }
}
