package dev.ringzero.agents.definition;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed v1 gadget-agent definition with every default filled in: what a revision stores and what
 * the executors read. {@link #from} expects JSON that already passed {@link AgentSchema}; use
 * {@link DefinitionValidator} on anything an author sent.
 *
 * @param maxParallel  how many runs may overlap; always 1 unless {@code concurrency} is parallel
 * @param state        the initial state document (an object, empty if none was given)
 */
public record AgentSpec(
        String name,
        String description,
        List<String> gadgets,
        Kind kind,
        List<Trigger> triggers,
        List<Action> actions,
        String instructions,
        Allow allow,
        Budget budget,
        Concurrency concurrency,
        int maxParallel,
        boolean enabled,
        ObjectNode state,
        boolean wakeOnResolve,
        OnGate onGate) {

    public static final String API_VERSION = "ringzero/v1";

    /** Overlapping runs allowed when a parallel definition does not say. */
    public static final int DEFAULT_MAX_PARALLEL = 4;

    public AgentSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        description = description == null ? "" : description;
        gadgets = List.copyOf(gadgets);
        triggers = List.copyOf(triggers);
        actions = actions == null ? List.of() : List.copyOf(actions);
        instructions = instructions == null ? "" : instructions;
        allow = allow == null ? Allow.NONE : allow;
        budget = budget == null ? Budget.DEFAULT : budget;
        concurrency = concurrency == null ? Concurrency.SINGLE : concurrency;
        if (concurrency != Concurrency.PARALLEL) {
            maxParallel = 1;
        } else if (maxParallel <= 0) {
            maxParallel = DEFAULT_MAX_PARALLEL;
        }
        state = state == null ? SpecJson.MAPPER.createObjectNode() : state.deepCopy();
        onGate = onGate == null ? OnGate.NONE : onGate;
    }

    /** A definition without {@code onGate}. */
    public AgentSpec(String name, String description, List<String> gadgets, Kind kind, List<Trigger> triggers,
            List<Action> actions, String instructions, Allow allow, Budget budget, Concurrency concurrency,
            int maxParallel, boolean enabled, ObjectNode state, boolean wakeOnResolve) {
        this(name, description, gadgets, kind, triggers, actions, instructions, allow, budget, concurrency, maxParallel,
                enabled, state, wakeOnResolve, OnGate.NONE);
    }

    /** A copy: the record must not change behind a stored revision's back. */
    @Override
    public ObjectNode state() {
        return state.deepCopy();
    }

    /**
     * The index of the first of a run's actions ({@link #actionsFor}) that writes state, or -1:
     * later actions render from the state as it is then.
     */
    public static int firstStateWrite(List<Action> run) {
        for (int i = 0; i < run.size(); i++) {
            if (run.get(i).writesState()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The actions a rules run with this trigger takes: a continuation of a definition with
     * {@code onGate} takes the list for its gate's outcome; every other run takes {@code actions}.
     */
    public List<Action> actionsFor(Map<String, ?> trigger) {
        if (kind != Kind.RULES || onGate.isEmpty() || trigger == null || !"continuation".equals(trigger.get("kind"))) {
            return actions;
        }
        Object gate = trigger.get("gate");
        Object state = gate instanceof Map<?, ?> outcome ? outcome.get("state") : null;
        return OnGate.outcomeOf(state == null ? null : state.toString()).map(onGate::of).orElse(List.of());
    }

    /**
     * Whether a gate this agent filed, resolved to {@code gateState}, starts a continuation run:
     * with {@code onGate}, only for an outcome it lists; without, when {@code wakeOnResolve}.
     */
    public boolean wakesOn(String gateState) {
        if (onGate.isEmpty()) {
            return wakeOnResolve;
        }
        return OnGate.outcomeOf(gateState).map(outcome -> !onGate.of(outcome).isEmpty()).orElse(false);
    }

    /** Parses a definition that passed the schema; throws {@link IllegalArgumentException} on a wrong shape. */
    public static AgentSpec from(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("a definition must be a JSON object");
        }
        String apiVersion = SpecJson.requiredText(json, "apiVersion");
        if (!API_VERSION.equals(apiVersion)) {
            throw new IllegalArgumentException("unsupported apiVersion '" + apiVersion + "'");
        }
        List<Trigger> triggers = new ArrayList<>();
        json.path("triggers").forEach(trigger -> triggers.add(Trigger.from(trigger)));
        List<Action> actions = new ArrayList<>();
        json.path("actions").forEach(action -> actions.add(Action.from(action)));
        JsonNode state = json.get("state");
        return new AgentSpec(
                SpecJson.requiredText(json, "name"),
                SpecJson.optionalText(json, "description", ""),
                SpecJson.textList(json, "gadgets"),
                Kind.fromJson(SpecJson.requiredText(json, "kind")),
                triggers,
                actions,
                SpecJson.optionalText(json, "instructions", ""),
                json.has("allow") ? Allow.from(json.get("allow")) : Allow.NONE,
                json.has("budget") ? Budget.from(json.get("budget")) : Budget.DEFAULT,
                json.has("concurrency")
                        ? Concurrency.fromJson(SpecJson.requiredText(json, "concurrency"))
                        : Concurrency.SINGLE,
                SpecJson.optionalInt(json, "maxParallel", 0),
                SpecJson.optionalBoolean(json, "enabled", true),
                state != null && state.isObject() ? (ObjectNode) state : null,
                SpecJson.optionalBoolean(json, "wakeOnResolve", false),
                json.has("onGate") ? OnGate.from(json.get("onGate")) : OnGate.NONE);
    }

    /** The definition with all defaults spelled out; {@code from(toJson())} equals this spec. */
    public ObjectNode toJson() {
        ObjectNode json = SpecJson.MAPPER.createObjectNode();
        json.put("apiVersion", API_VERSION);
        json.put("name", name);
        if (!description.isEmpty()) {
            json.put("description", description);
        }
        json.set("gadgets", SpecJson.textArray(gadgets));
        json.put("kind", kind.json());
        ArrayNode triggerArray = json.putArray("triggers");
        triggers.forEach(trigger -> triggerArray.add(trigger.toJson()));
        ArrayNode actionArray = json.putArray("actions");
        actions.forEach(action -> actionArray.add(action.toJson()));
        if (!instructions.isEmpty()) {
            json.put("instructions", instructions);
        }
        json.set("allow", allow.toJson());
        json.set("budget", budget.toJson());
        json.put("concurrency", concurrency.json());
        if (concurrency == Concurrency.PARALLEL) {
            json.put("maxParallel", maxParallel);
        }
        json.put("enabled", enabled);
        if (!state.isEmpty()) {
            json.set("state", state.deepCopy());
        }
        json.put("wakeOnResolve", wakeOnResolve);
        if (!onGate.isEmpty()) {
            json.set("onGate", onGate.toJson());
        }
        return json;
    }

    /** {@code rules} runs its actions as written; {@code llm} lets a model choose within {@code allow}. */
    public enum Kind {
        RULES, LLM;

        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromJson(String value) {
            for (Kind kind : values()) {
                if (kind.json().equals(value)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown kind '" + value + "'");
        }
    }

    /** What happens to a trigger that arrives while a run is going. */
    public enum Concurrency {
        /** Drop the new trigger. */
        SINGLE,
        /** Run it after the current run. */
        QUEUED,
        /** Cancel the current run and start anew. */
        RESTART,
        /** Run alongside, up to {@code maxParallel}. */
        PARALLEL;

        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Concurrency fromJson(String value) {
            for (Concurrency concurrency : values()) {
                if (concurrency.json().equals(value)) {
                    return concurrency;
                }
            }
            throw new IllegalArgumentException("unknown concurrency '" + value + "'");
        }
    }

    /**
     * One step of a rules agent: a command to a bound gadget ({@code {gadget, command, params}}), or
     * a platform action ({@code {do, params}}: a write to the agent's own state, or a ring-3 intent
     * such as {@code email.send}), whose {@code gadget} is null. String values in {@code params} may
     * hold templates ({@link Templates}); {@code params} is deeply unmodifiable plain JSON (Map, List,
     * String, Number, Boolean, null).
     */
    public record Action(String gadget, String command, Map<String, Object> params) {
        public Action {
            Objects.requireNonNull(command, "command");
            params = SpecJson.freezeMap(params);
        }

        /** A platform action ({@code do}): it runs on the platform, never on a gadget. */
        public boolean isPlatform() {
            return gadget == null;
        }

        /** A platform action that writes the agent's state. */
        public boolean writesState() {
            return isPlatform() && PlatformCatalogue.isStateAction(command);
        }

        @SuppressWarnings("unchecked")
        static Action from(JsonNode node) {
            JsonNode params = node.get("params");
            Map<String, Object> plain = params != null && params.isObject()
                    ? (Map<String, Object>) SpecJson.toPlain(params) : Map.of();
            if (node.has("do")) {
                return new Action(null, SpecJson.requiredText(node, "do"), plain);
            }
            return new Action(SpecJson.requiredText(node, "gadget"), SpecJson.requiredText(node, "command"), plain);
        }

        ObjectNode toJson() {
            ObjectNode json = isPlatform() ? SpecJson.MAPPER.createObjectNode().put("do", command)
                    : SpecJson.MAPPER.createObjectNode().put("gadget", gadget).put("command", command);
            if (!params.isEmpty()) {
                json.set("params", SpecJson.MAPPER.valueToTree(params));
            }
            return json;
        }
    }

    /**
     * What the agent may do. A command outside {@code commands} is never sent, whatever the actions or
     * a model say; {@code physical} must be granted for anything that moves.
     */
    public record Allow(List<String> commands, List<String> tools, List<String> intents, boolean physical) {

        public static final Allow NONE = new Allow(List.of(), List.of(), List.of(), false);

        public Allow {
            commands = commands == null ? List.of() : List.copyOf(commands);
            tools = tools == null ? List.of() : List.copyOf(tools);
            intents = intents == null ? List.of() : List.copyOf(intents);
        }

        public boolean permitsCommand(String command) {
            return commands.contains(command);
        }

        static Allow from(JsonNode node) {
            return new Allow(
                    SpecJson.textList(node, "commands"),
                    SpecJson.textList(node, "tools"),
                    SpecJson.textList(node, "intents"),
                    SpecJson.optionalBoolean(node, "physical", false));
        }

        ObjectNode toJson() {
            ObjectNode json = SpecJson.MAPPER.createObjectNode();
            json.set("commands", SpecJson.textArray(commands));
            json.set("tools", SpecJson.textArray(tools));
            json.set("intents", SpecJson.textArray(intents));
            json.put("physical", physical);
            return json;
        }
    }

    /**
     * What a rules agent does when a gate one of its runs filed resolves: a list of actions for
     * each outcome, run as a continuation whose trigger carries the gate ({@code {{trigger.gate.note}}}).
     * {@code approved} covers a gate the owner approved, whether its execution then succeeded or
     * failed ({@code trigger.gate.state} is {@code executed} or {@code failed}); a fenced gate (the
     * agent changed) wakes nothing.
     */
    public record OnGate(List<Action> approved, List<Action> denied, List<Action> expired) {

        public static final OnGate NONE = new OnGate(List.of(), List.of(), List.of());

        /** The outcomes, as the definition names them. */
        public static final List<String> OUTCOMES = List.of("approved", "denied", "expired");

        public OnGate {
            approved = approved == null ? List.of() : List.copyOf(approved);
            denied = denied == null ? List.of() : List.copyOf(denied);
            expired = expired == null ? List.of() : List.copyOf(expired);
        }

        public boolean isEmpty() {
            return approved.isEmpty() && denied.isEmpty() && expired.isEmpty();
        }

        /** The outcome a gate's terminal state is: executed and failed were approved; fenced is none. */
        public static java.util.Optional<String> outcomeOf(String gateState) {
            if ("executed".equals(gateState) || "failed".equals(gateState)) {
                return java.util.Optional.of("approved");
            }
            return "denied".equals(gateState) || "expired".equals(gateState) ? java.util.Optional.of(gateState)
                    : java.util.Optional.empty();
        }

        /** The actions for one of {@link #OUTCOMES}. */
        public List<Action> of(String outcome) {
            return switch (outcome) {
                case "approved" -> approved;
                case "denied" -> denied;
                case "expired" -> expired;
                default -> List.of();
            };
        }

        static OnGate from(JsonNode node) {
            return new OnGate(list(node.path("approved")), list(node.path("denied")), list(node.path("expired")));
        }

        private static List<Action> list(JsonNode array) {
            List<Action> actions = new ArrayList<>();
            array.forEach(action -> actions.add(Action.from(action)));
            return actions;
        }

        ObjectNode toJson() {
            ObjectNode json = SpecJson.MAPPER.createObjectNode();
            for (String outcome : OUTCOMES) {
                if (!of(outcome).isEmpty()) {
                    ArrayNode array = json.putArray(outcome);
                    of(outcome).forEach(action -> array.add(action.toJson()));
                }
            }
            return json;
        }
    }

    /**
     * Per-agent ceilings the kernel enforces; each must lie within {@link DefinitionLimits}.
     * {@code cooldownWaitSeconds} is how long a trigger of a {@code queued} agent that arrives in the
     * cooldown may wait for its next eligible time (0: it ends {@code cooldown} at once).
     */
    public record Budget(int runsPerHour, int cooldownSeconds, int maxRunSeconds, int toolCallsPerRun, int tokensPerRun,
            int cooldownWaitSeconds) {

        public static final Budget DEFAULT = new Budget(60, 0, 30, 8, 4000, 0);

        /** A budget whose triggers never wait out a cooldown. */
        public Budget(int runsPerHour, int cooldownSeconds, int maxRunSeconds, int toolCallsPerRun, int tokensPerRun) {
            this(runsPerHour, cooldownSeconds, maxRunSeconds, toolCallsPerRun, tokensPerRun, 0);
        }

        static Budget from(JsonNode node) {
            return new Budget(
                    SpecJson.optionalInt(node, "runsPerHour", DEFAULT.runsPerHour),
                    SpecJson.optionalInt(node, "cooldownSeconds", DEFAULT.cooldownSeconds),
                    SpecJson.optionalInt(node, "maxRunSeconds", DEFAULT.maxRunSeconds),
                    SpecJson.optionalInt(node, "toolCallsPerRun", DEFAULT.toolCallsPerRun),
                    SpecJson.optionalInt(node, "tokensPerRun", DEFAULT.tokensPerRun),
                    SpecJson.optionalInt(node, "cooldownWaitSeconds", DEFAULT.cooldownWaitSeconds));
        }

        ObjectNode toJson() {
            return SpecJson.MAPPER.createObjectNode()
                    .put("runsPerHour", runsPerHour)
                    .put("cooldownSeconds", cooldownSeconds)
                    .put("maxRunSeconds", maxRunSeconds)
                    .put("toolCallsPerRun", toolCallsPerRun)
                    .put("tokensPerRun", tokensPerRun)
                    .put("cooldownWaitSeconds", cooldownWaitSeconds);
        }
    }
}
