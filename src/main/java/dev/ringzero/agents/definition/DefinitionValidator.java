package dev.ringzero.agents.definition;

import dev.ringzero.gadgets.GadgetDirectory;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.agents.definition.AgentSpec.Action;
import dev.ringzero.agents.definition.AgentSpec.Allow;
import dev.ringzero.agents.definition.AgentSpec.Budget;
import dev.ringzero.agents.definition.AgentSpec.Kind;
import dev.ringzero.agents.definition.Trigger.GadgetEventTrigger;
import dev.ringzero.agents.definition.Trigger.ScheduleTrigger;
import dev.ringzero.agents.definition.Trigger.When;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.gadgets.GadgetView;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether an owner may save a gadget-agent definition.
 *
 * <p>First the JSON Schema: if the shape is wrong, only those errors are reported, since the semantic
 * rules cannot read a malformed definition. Then every semantic rule runs and all failures are reported
 * together, so an author (or a personal agent writing on someone's behalf) fixes everything in one
 * round trip. The rules guard the owner: an agent can only address the owner's own paired gadgets,
 * only commands those gadgets registered and the definition grants, nothing privileged, nothing that
 * moves without an explicit grant, and only within the platform's budget limits.
 */
public final class DefinitionValidator {

    private static final java.util.regex.Pattern CRON_CHARACTERS = java.util.regex.Pattern.compile("[0-9A-Za-z*,/?\\- ]+");
    private static final CronParser CRON = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    private final GadgetDirectory directory;
    private final DefinitionLimits limits;

    public DefinitionValidator(GadgetDirectory directory, DefinitionLimits limits) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** Validates {@code body} as a definition owned by {@code ownerId}. */
    public Validation validate(JsonNode body, String ownerId) {
        List<Violation> schemaViolations = AgentSchema.validate(body);
        if (!schemaViolations.isEmpty()) {
            return new Validation.Invalid(schemaViolations);
        }
        AgentSpec spec;
        try {
            spec = AgentSpec.from(body);
        } catch (IllegalArgumentException e) {
            // The schema should make this unreachable; refuse rather than fail if the two drift apart.
            return new Validation.Invalid(List.of(new Violation("", Violation.SCHEMA, e.getMessage())));
        }
        List<Violation> violations = new Check(spec, body, ownerId).run();
        return violations.isEmpty() ? new Validation.Valid(spec) : new Validation.Invalid(violations);
    }

    /** One validation: the spec, its raw JSON (for JSON types and paths) and what was found so far. */
    private final class Check {

        private final AgentSpec spec;
        private final JsonNode body;
        private final String ownerId;
        /** Bound gadgets the directory knows for this owner; unknown ones are reported, then skipped. */
        private final Map<String, GadgetView> known = new LinkedHashMap<>();
        private final List<Violation> violations = new ArrayList<>();

        Check(AgentSpec spec, JsonNode body, String ownerId) {
            this.spec = spec;
            this.body = body;
            this.ownerId = ownerId;
        }

        List<Violation> run() {
            gadgets();
            actions();
            allow();
            kind();
            triggers();
            budget();
            state();
            return List.copyOf(violations);
        }

        private void gadgets() {
            List<String> gadgets = spec.gadgets();
            for (int i = 0; i < gadgets.size(); i++) {
                String id = gadgets.get(i);
                // The directory promises owner scoping; checking again costs nothing and fails closed.
                Optional<GadgetView> view = ownerId == null
                        ? Optional.empty()
                        : directory.find(ownerId, id).filter(found -> ownerId.equals(found.ownerId()));
                if (view.isPresent()) {
                    known.put(id, view.get());
                } else {
                    add(Violation.pointer("gadgets", i), Violation.UNKNOWN_GADGET,
                            "no paired gadget '" + id + "' belongs to this account");
                }
            }
        }

        private void actions() {
            actions("/actions", spec.actions(), body.path("actions"));
            for (String outcome : AgentSpec.OnGate.OUTCOMES) {
                actions(Violation.pointer("onGate", outcome), spec.onGate().of(outcome),
                        body.path("onGate").path(outcome));
            }
        }

        /** One list of actions ({@code actions}, or an {@code onGate} outcome's), at {@code listPath}. */
        private void actions(String listPath, List<Action> actions, JsonNode written) {
            Allow allow = spec.allow();
            for (int i = 0; i < actions.size(); i++) {
                Action action = actions.get(i);
                String base = listPath + "/" + i;
                String commandPath = Violation.under(base, "command");
                String command = action.command();
                JsonNode params = written.path(i).path("params");
                if (action.isPlatform()) {
                    platformAction(base, action, params, allow);
                    templates(Violation.under(base, "params"), params);
                    continue;
                }
                if (PlatformCatalogue.isPrivilegedCommand(command)) {
                    add(commandPath, Violation.PRIVILEGED_COMMAND,
                            "'" + command + "' is reserved to the owner and cannot be given to an agent");
                }
                if (!spec.gadgets().contains(action.gadget())) {
                    add(Violation.under(base, "gadget"), Violation.ACTION_GADGET_NOT_BOUND,
                            "gadget '" + action.gadget() + "' is not listed in gadgets");
                } else if (known.containsKey(action.gadget())) {
                    CommandSpec registered = known.get(action.gadget()).commands().get(command);
                    if (registered == null) {
                        add(commandPath, Violation.UNREGISTERED_COMMAND,
                                "gadget '" + action.gadget() + "' has not registered '" + command + "'");
                    } else {
                        params(base, params, registered);
                    }
                }
                if (!allow.permitsCommand(command)) {
                    add(commandPath, Violation.COMMAND_NOT_ALLOWED,
                            "'" + command + "' is not listed in allow.commands");
                }
                if (PlatformCatalogue.isPhysicalCommand(command) && !allow.physical()) {
                    add(commandPath, Violation.PHYSICAL_NOT_GRANTED,
                            "'" + command + "' moves something, so allow.physical must be true");
                }
                templates(Violation.under(base, "params"), params);
            }
        }

        /** {@code {do, params}}: a state write (no grant needed: its own state) or a ring-3 intent it must be granted. */
        private void platformAction(String base, Action action, JsonNode params, Allow allow) {
            String path = Violation.under(base, "do");
            if (PlatformCatalogue.isStateAction(action.command())) {
                JsonNode given = params.isObject() ? params : SpecJson.MAPPER.createObjectNode();
                for (StateActions.Problem problem : StateActions.problems(action.command(), given,
                        value -> value.isTextual() && Templates.isTemplate(value.textValue()))) {
                    add(Violation.under(base, "params", problem.param()), problem.code(), problem.message());
                }
            } else if (PlatformCatalogue.isIntegrationIntent(action.command())) {
                if (!allow.intents().contains(action.command())) {
                    add(path, Violation.INTENT_NOT_ALLOWED, "'" + action.command() + "' is not listed in allow.intents");
                }
            } else {
                add(path, Violation.UNKNOWN_INTENT, "'" + action.command() + "' is not a platform action");
            }
        }

        private void params(String base, JsonNode params, CommandSpec command) {
            for (CommandSpec.ParamProblem problem : command.problems(params,
                    value -> value.isTextual() && Templates.isTemplate(value.textValue()))) {
                add(Violation.under(base, "params", problem.param()), switch (problem.kind()) {
                    case MISSING -> Violation.MISSING_PARAM;
                    case UNKNOWN -> Violation.UNKNOWN_PARAM;
                    case WRONG_TYPE -> Violation.PARAM_TYPE;
                }, problem.message());
            }
        }

        private void templates(String path, JsonNode value) {
            if (value.isTextual()) {
                violations.addAll(Templates.check(value.textValue(), path));
            } else if (value.isObject()) {
                value.fields().forEachRemaining(field ->
                        templates(Violation.under(path, field.getKey()), field.getValue()));
            } else if (value.isArray()) {
                for (int i = 0; i < value.size(); i++) {
                    templates(Violation.under(path, i), value.get(i));
                }
            }
        }

        private void allow() {
            Allow allow = spec.allow();
            for (int i = 0; i < allow.commands().size(); i++) {
                String command = allow.commands().get(i);
                String path = Violation.pointer("allow", "commands", i);
                if (PlatformCatalogue.isPrivilegedCommand(command)) {
                    add(path, Violation.PRIVILEGED_COMMAND,
                            "'" + command + "' is reserved to the owner and cannot be given to an agent");
                }
                if (!registeredOnBoundGadget(command)) {
                    add(path, Violation.UNREGISTERED_COMMAND, "no gadget in gadgets has registered '" + command + "'");
                }
                if (PlatformCatalogue.isPhysicalCommand(command) && !allow.physical()) {
                    add(path, Violation.PHYSICAL_NOT_GRANTED,
                            "'" + command + "' moves something, so allow.physical must be true");
                }
            }
            for (int i = 0; i < allow.tools().size(); i++) {
                String tool = allow.tools().get(i);
                if (!PlatformCatalogue.isTool(tool)) {
                    add(Violation.pointer("allow", "tools", i), Violation.UNKNOWN_TOOL,
                            "'" + tool + "' is not a platform tool");
                }
            }
            for (int i = 0; i < allow.intents().size(); i++) {
                String intent = allow.intents().get(i);
                if (!PlatformCatalogue.isIntegrationIntent(intent) && !registeredOnBoundGadget(intent)) {
                    add(Violation.pointer("allow", "intents", i), Violation.UNKNOWN_INTENT,
                            "'" + intent + "' is neither a platform intent nor a command of a gadget in gadgets");
                }
            }
        }

        private void kind() {
            if (spec.kind() == Kind.RULES && spec.actions().isEmpty()) {
                add("/actions", Violation.ACTIONS_REQUIRED, "a rules agent needs at least one action");
            }
            if (spec.kind() == Kind.LLM && spec.instructions().isBlank()) {
                add("/instructions", Violation.INSTRUCTIONS_REQUIRED, "an llm agent needs instructions");
            }
            if (spec.kind() == Kind.LLM && !spec.onGate().isEmpty()) {
                // an llm agent's continuation is a session that reads the outcome and chooses itself
                add("/onGate", Violation.ON_GATE_NEEDS_RULES,
                        "onGate is for rules agents; an llm agent with wakeOnResolve reads the gate's outcome");
            }
        }

        private void triggers() {
            List<Trigger> triggers = spec.triggers();
            for (int i = 0; i < triggers.size(); i++) {
                String base = Violation.pointer("triggers", i);
                JsonNode raw = body.path("triggers").path(i);
                if (triggers.get(i) instanceof GadgetEventTrigger event) {
                    gadgetEvent(base, raw, event);
                } else if (triggers.get(i) instanceof ScheduleTrigger schedule) {
                    cron(Violation.under(base, "cron"), schedule);
                    zone(Violation.under(base, "timeZone"), schedule.timeZone());
                }
            }
        }

        private void gadgetEvent(String base, JsonNode raw, GadgetEventTrigger trigger) {
            if (!spec.gadgets().contains(trigger.gadget())) {
                add(Violation.under(base, "gadget"), Violation.TRIGGER_GADGET_NOT_BOUND,
                        "gadget '" + trigger.gadget() + "' is not listed in gadgets");
            } else if (known.containsKey(trigger.gadget())) {
                GadgetView gadget = known.get(trigger.gadget());
                // A gadget that registered no events may still publish ad-hoc ones; only a list binds.
                if (!gadget.events().isEmpty() && !gadget.events().contains(trigger.event())) {
                    add(Violation.under(base, "event"), Violation.UNKNOWN_EVENT, "gadget '" + trigger.gadget()
                            + "' does not publish '" + trigger.event() + "'; it publishes "
                            + gadget.events().stream().sorted().toList());
                }
            }
            When when = trigger.when();
            if (when.hasHours() && when.startHour() >= when.endHour()) {
                add(Violation.under(base, "when", "hours"), Violation.INVALID_HOURS,
                        "hours [" + when.startHour() + ", " + when.endHour()
                                + "] must start before they end; use two triggers to span midnight");
            }
            if (raw.path("when").has("timeZone")) {
                zone(Violation.under(base, "when", "timeZone"), when.timeZone());
            }
        }

        /**
         * A five-field Unix cron of plain ASCII (the parser would read other scripts' digits) that
         * fires at least once in the next four years (Feb 29 included), in the trigger's zone.
         */
        private void cron(String pointer, ScheduleTrigger schedule) {
            String cron = schedule.cron();
            if (!CRON_CHARACTERS.matcher(cron).matches()) {
                add(pointer, Violation.INVALID_CRON, "'" + cron + "' may hold only ASCII digits, letters, spaces and * , - / ?");
                return;
            }
            try {
                CRON.parse(cron).validate();
            } catch (RuntimeException e) {
                add(pointer, Violation.INVALID_CRON, "'" + cron + "' is not a five-field Unix cron expression: "
                        + e.getMessage());
                return;
            }
            java.time.ZoneId zone;
            try {
                zone = schedule.zone();
            } catch (RuntimeException e) {
                return; // the zone's own check reports it
            }
            java.time.Instant now = java.time.Instant.now();
            boolean fires = com.cronutils.model.time.ExecutionTime.forCron(CRON.parse(cron))
                    .nextExecution(now.atZone(zone))
                    .filter(next -> next.toInstant().isBefore(now.plus(java.time.Duration.ofDays(4 * 366))))
                    .isPresent();
            if (!fires) {
                add(pointer, Violation.INVALID_CRON, "'" + cron + "' never fires (no such date in the next four years)");
            }
        }

        private void zone(String path, String zone) {
            try {
                ZoneId.of(zone);
            } catch (DateTimeException e) {
                add(path, Violation.INVALID_TIME_ZONE, "'" + zone + "' is not a time zone such as Europe/Berlin");
            }
        }

        private void budget() {
            Budget budget = spec.budget();
            limit("runsPerHour", budget.runsPerHour(), limits.maxRunsPerHour());
            limit("cooldownSeconds", budget.cooldownSeconds(), limits.maxCooldownSeconds());
            limit("maxRunSeconds", budget.maxRunSeconds(), limits.maxRunSeconds());
            limit("toolCallsPerRun", budget.toolCallsPerRun(), limits.maxToolCallsPerRun());
            limit("tokensPerRun", budget.tokensPerRun(), limits.maxTokensPerRun());
            limit("cooldownWaitSeconds", budget.cooldownWaitSeconds(), limits.maxCooldownSeconds());
            if (budget.cooldownWaitSeconds() > 0 && spec.concurrency() != AgentSpec.Concurrency.QUEUED) {
                // only a queued agent's triggers wait their turn; under any other mode a waiting
                // run would overtake or crowd the runs the mode is there to order
                add(Violation.pointer("budget", "cooldownWaitSeconds"), Violation.COOLDOWN_WAIT_NEEDS_QUEUED,
                        "cooldownWaitSeconds needs concurrency: queued (this agent is "
                                + spec.concurrency().name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
        }

        private void limit(String field, int value, int max) {
            if (value > max) {
                add(Violation.pointer("budget", field), Violation.BUDGET_EXCEEDS_LIMIT,
                        field + " " + value + " exceeds the platform limit of " + max);
            }
        }

        private void state() {
            int bytes;
            try {
                bytes = SpecJson.MAPPER.writeValueAsBytes(spec.state()).length;
            } catch (JsonProcessingException e) {
                bytes = Integer.MAX_VALUE;
            }
            if (bytes > limits.maxStateBytes()) {
                add("/state", Violation.STATE_TOO_LARGE,
                        "state is " + bytes + " bytes; the limit is " + limits.maxStateBytes());
            }
        }

        private boolean registeredOnBoundGadget(String command) {
            return known.values().stream().anyMatch(gadget -> gadget.hasCommand(command));
        }

        private void add(String path, String code, String message) {
            violations.add(new Violation(path, code, message));
        }
    }
}
