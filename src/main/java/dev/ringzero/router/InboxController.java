package dev.ringzero.router;

import java.util.List;

import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "inbox", description = "events that matched no agent, and notices for the owner")
class InboxController {

    private final InboxService inbox;

    InboxController(InboxService inbox) {
        this.inbox = inbox;
    }

    @GetMapping("/api/v1/inbox")
    @Operation(summary = "The owner's inbox, newest first")
    List<InboxService.Message> list(Caller caller, @RequestParam(defaultValue = "50") int limit) {
        return inbox.list(caller.accountId(), Math.max(1, Math.min(limit, 500)));
    }
}
