package dev.ringzero.agents.definition;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the platform itself offers agents besides gadget commands: tools an LLM agent may call and
 * ring-3 intents (integrations) a definition may ask for. Static because they ship with the platform;
 * a definition naming anything else is refused.
 */
public final class PlatformCatalogue {

    /** One grantable capability, as authors see it. */
    public record Entry(String name, String description) {
    }

    /** The whole catalogue, in the shape a REST controller serves it. */
    public record Catalogue(List<Entry> tools, List<Entry> intents, List<Entry> stateActions) {
    }

    /**
     * Platform tools an {@code llm} run may call when {@code allow.tools} names them. A bound gadget's
     * commands are not listed here: {@code allow.commands} grants them, and the model sees each as a
     * tool of its own.
     */
    public static final List<Entry> TOOLS = List.of(
            new Entry("calendar.today", "Read the owner's calendar events of today: title, start, end, location."),
            new Entry("calendar.next_meeting", "Read the owner's next meeting today that has not ended yet."),
            new Entry("state.get", "Read this agent's state document and its version."),
            new Entry("state.set", "Replace this agent's state document, given the version it read (at most 64 KiB)."),
            new Entry("journal.read", "Read what became of this agent's recent requests (gates, refusals)."));

    public static final List<Entry> INTENTS = List.of(
            new Entry("email.send", "Send an email from the platform to an address the owner approved."),
            new Entry("webhook.post", "POST a JSON body to a webhook URL the owner registered."));

    /**
     * What a rules agent's {@code {"do": …}} action may name besides the ring-3 intents: writes to its
     * own state. They need no grant: an agent's state is its own and touches nothing outside.
     */
    public static final List<Entry> STATE_ACTIONS = List.of(
            new Entry("state.set", "Set one key of the agent's state: params {key, value}."),
            new Entry("state.merge", "Merge an object into the agent's state, key by key: params {value}."),
            new Entry("state.increment", "Add to a number in the agent's state: params {key, by} (by defaults to 1;"
                    + " a missing key counts from 0)."));

    private static final Set<String> PHYSICAL_PREFIXES = Set.of("chassis.", "arm.", "servo.", "motor.");

    private static final Set<String> PRIVILEGED_COMMANDS = Set.of("device.ota", "device.discover", "device.unpair");

    private PlatformCatalogue() {
    }

    public static Catalogue catalogue() {
        return new Catalogue(TOOLS, INTENTS, STATE_ACTIONS);
    }

    public static Optional<Entry> tool(String name) {
        return find(TOOLS, name);
    }

    public static Optional<Entry> intent(String name) {
        return find(INTENTS, name);
    }

    public static boolean isTool(String name) {
        return tool(name).isPresent();
    }

    public static boolean isStateAction(String name) {
        return find(STATE_ACTIONS, name).isPresent();
    }

    /** True for a ring-3 integration intent; a device command is an intent too, but not listed here. */
    public static boolean isIntegrationIntent(String name) {
        return intent(name).isPresent();
    }

    /** A command that moves something in the world, so an agent needs {@code allow.physical} for it. */
    public static boolean isPhysicalCommand(String command) {
        return command != null && PHYSICAL_PREFIXES.stream().anyMatch(command::startsWith);
    }

    /** A command only the owner may trigger by hand (firmware, pairing); no agent may ever hold it. */
    public static boolean isPrivilegedCommand(String command) {
        return PRIVILEGED_COMMANDS.contains(command);
    }

    private static Optional<Entry> find(List<Entry> entries, String name) {
        return entries.stream().filter(entry -> entry.name().equals(name)).findFirst();
    }
}
