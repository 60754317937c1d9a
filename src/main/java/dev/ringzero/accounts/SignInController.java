package dev.ringzero.accounts;

import dev.ringzero.accounts.AccountService.Session;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirements;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Signing in with an account's id and password (the same as Tasklist's), for the automations page:
 * the answer is a token of the account's own, used as {@code Authorization: Bearer} like any other.
 * The web layer's API filter lets {@code POST /api/v1/sign-in} through without a credential and
 * counts its failures in the login throttle.
 */
@RestController
@Tag(name = "sign-in", description = "an account's id and password for a token (the automations page)")
class SignInController {

    static final String SIGN_IN = "/api/v1/sign-in";

    private final AccountService accounts;

    SignInController(AccountService accounts) {
        this.accounts = accounts;
    }

    record SignIn(@NotBlank @Size(max = 64) String id, @NotBlank @Size(max = 200) String password) {
    }

    record SignedIn(String accountId, String role, String token) {
    }

    @PostMapping(SIGN_IN)
    @SecurityRequirements
    @Operation(summary = "Sign in with the account's id and password; a new token, or 401 (failures are throttled)")
    SignedIn signIn(@Valid @RequestBody SignIn body) {
        Session session = accounts.signIn(body.id(), body.password());
        return new SignedIn(session.accountId(), session.role().name().toLowerCase(java.util.Locale.ROOT),
                session.token());
    }

    @PostMapping("/api/v1/sign-out")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Sign out: the token this request carries stops working")
    void signOut(Caller caller, @RequestHeader("Authorization") String authorization) {
        accounts.revoke(authorization.substring("Bearer ".length()).trim());
    }
}
