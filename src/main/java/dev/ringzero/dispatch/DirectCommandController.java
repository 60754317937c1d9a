package dev.ringzero.dispatch;

import java.util.Map;

import dev.ringzero.accounts.Caller;
import dev.ringzero.dispatch.DirectCommands.CommandResult;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The owner's direct command path over REST ({@link DirectCommands} decides and sends). */
@RestController
@Tag(name = "gadgets")
class DirectCommandController {

    private final DirectCommands commands;

    DirectCommandController(DirectCommands commands) {
        this.commands = commands;
    }

    record CommandRequest(@NotBlank String command, Map<String, Object> params) {
    }

    @PostMapping("/api/v1/gadgets/{id}/commands")
    @Operation(summary = "The owner's direct command path: same kernel checks, priority over background agents",
            description = "A moving command while another mover (an agent, an approved gate) holds the gadget "
                    + "answers 409 mover-busy and is not sent: one mover at a time. A stop always passes and frees "
                    + "the gadget. Parameters that do not fit the command as the gadget registered it (a required one "
                    + "missing, an unknown one, a wrong JSON type) answer 400 invalid-params and nothing is sent.")
    CommandResult command(Caller caller, @PathVariable String id, @Valid @RequestBody CommandRequest body) {
        return commands.send(caller.accountId(), id, body.command(), body.params());
    }
}
