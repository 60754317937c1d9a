package dev.ringzero.ecosystem;

import java.util.List;

import dev.ringzero.accounts.Caller;
import dev.ringzero.Refusal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The owner's webhook allowlist: hosts {@code webhook.post} may reach on their behalf. */
@RestController
@RequestMapping("/api/v1/webhook-hosts")
@Tag(name = "webhook-hosts", description = "hosts the owner lets webhook.post reach")
class WebhookHostController {

    private final WebhookHosts hosts;

    WebhookHostController(WebhookHosts hosts) {
        this.hosts = hosts;
    }

    record NewHost(String host) {
    }

    record Allowlist(List<String> own, List<String> platform) {
    }

    @GetMapping
    @Operation(summary = "The owner's hosts, and those the platform allows for everyone")
    Allowlist list(Caller caller) {
        return new Allowlist(hosts.own(caller.accountId()), hosts.platform());
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Allow a host (or *.domain) for webhook.post")
    NewHost add(Caller caller, @RequestBody NewHost body) {
        return new NewHost(hosts.add(caller.accountId(), body.host()));
    }

    @DeleteMapping("/{host}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void remove(Caller caller, @PathVariable String host) {
        if (!hosts.remove(caller.accountId(), host)) {
            throw Refusal.notFound("webhook host");
        }
    }
}
