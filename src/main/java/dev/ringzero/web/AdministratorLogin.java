package dev.ringzero.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import dev.ringzero.accounts.LoginDirectory;

/** An {@code Authorization: Basic …} header of an administrator whose password checks out. */
final class AdministratorLogin {

    private AdministratorLogin() {
    }

    /** The administrator's id, or empty for anything else (no header, another scheme, a wrong password). */
    static Optional<String> of(String header, LoginDirectory logins) {
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        String user = decoded.substring(0, colon);
        return logins.checkPassword(user, decoded.substring(colon + 1)) && logins.isAdministrator(user)
                ? Optional.of(user) : Optional.empty();
    }
}
