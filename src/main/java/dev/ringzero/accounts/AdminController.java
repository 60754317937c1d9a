package dev.ringzero.accounts;

import dev.ringzero.accounts.AccountService.NewAccount;
import dev.ringzero.accounts.Caller.Role;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Bootstrap routes for the administrator (HTTP Basic, checked by the web layer's API filter). */
@RestController
@RequestMapping("/api/v1/admin")
@Tag(name = "admin", description = "accounts and service credentials (admin, HTTP Basic)")
class AdminController {

    private final AccountService accounts;

    AdminController(AccountService accounts) {
        this.accounts = accounts;
    }

    record CreateAccount(@NotBlank String id, @NotBlank String password, String displayName, String role) {
    }

    record ServiceTokenRequest(@NotBlank String role) {
    }

    record TokenResponse(String token) {
    }

    @PostMapping("/accounts")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Create an account (also a Camunda user); the API token is returned once")
    NewAccount create(@Valid @RequestBody CreateAccount body) {
        Role role = body.role() == null ? Role.OWNER : parseRole(body.role());
        return accounts.create(body.id(), body.password(), body.displayName(), role);
    }

    @PostMapping("/service-tokens")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Issue a gateway service credential (may only admit events)")
    TokenResponse serviceToken(@Valid @RequestBody ServiceTokenRequest body) {
        return new TokenResponse(accounts.issueServiceToken(parseRole(body.role())));
    }

    private static Role parseRole(String role) {
        try {
            return Role.valueOf(role.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw dev.ringzero.Refusal.invalid("invalid-role", "unknown role '" + role + "'");
        }
    }
}
