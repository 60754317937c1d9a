package dev.ringzero.agents.llm;

import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Tag(name = "agents", description = "gadget-agent definitions")
class DraftController {

    private final Drafts drafts;

    DraftController(Drafts drafts) {
        this.drafts = drafts;
    }

    record DraftRequest(String text) {
    }

    @PostMapping("/api/v1/gadget-agents/drafts")
    @Operation(summary = "A draft definition from a sentence, written by the configured model",
            description = "Validated, repaired from the validator's errors up to 3 times, and dry-run; nothing is "
                    + "saved. valid=false carries the last draft and what is still wrong. Without a model: 503 "
                    + "llm-unconfigured; a model that fails: 503 model-failed.")
    Drafts.Draft draft(Caller caller, @RequestBody DraftRequest body) {
        return drafts.draft(caller.accountId(), body == null ? null : body.text());
    }
}
