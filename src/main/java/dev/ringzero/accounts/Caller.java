package dev.ringzero.accounts;

/**
 * Who is calling, taken from the authenticated credential and never from a request body.
 * Controllers receive it as a method argument.
 */
public record Caller(String accountId, Role role) {

    public enum Role { ADMIN, OWNER, ANALYST, GATEWAY }

    public boolean isGateway() {
        return role == Role.GATEWAY;
    }
}
