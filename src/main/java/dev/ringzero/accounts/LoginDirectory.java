package dev.ringzero.accounts;

/**
 * The directory the webapps (Tasklist, Cockpit) and the engine REST API log people in with.
 * Accounts owns this port: every account is mirrored into it with the same id and password, and
 * the administrator's HTTP Basic login on the admin routes is checked against it. The engine's
 * identity service implements it in the workflow package.
 */
public interface LoginDirectory {

    /** Creates the groups and their standing grants; idempotent, run at every start. */
    void ensureGroups();

    boolean userExists(String id);

    boolean checkPassword(String id, String password);

    /** True for a member of the administrators' group. */
    boolean isAdministrator(String id);

    /** Sets a login's password (and lifts any lock the directory holds on it). */
    void setPassword(String id, String password);

    /**
     * Who is logged in to the webapps (Tasklist, Cockpit) in this HTTP session, if anyone: how a
     * Cockpit plugin's calls to the platform are known without a token of their own.
     */
    default java.util.Optional<String> webappUser(jakarta.servlet.http.HttpSession session) {
        return java.util.Optional.empty();
    }

    /** Mirrors an account: a login with this password, in the group of its role. */
    void createUser(String id, String password, String displayName, Caller.Role role);
}
