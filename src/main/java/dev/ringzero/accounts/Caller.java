package dev.ringzero.accounts;

/**
 * Who is calling, taken from the authenticated credential and never from a request body.
 * Controllers receive it as a method argument.
 */
public record Caller(String accountId, Role role) {

    public enum Role { ADMIN, OWNER, ANALYST, GATEWAY }

    /** Whether the caller may read every owner's records (run and gate history): analysts and the administrator. */
    public boolean readsEveryOwner() {
        return role == Role.ANALYST || role == Role.ADMIN;
    }

    public boolean isGateway() {
        return role == Role.GATEWAY;
    }
}
