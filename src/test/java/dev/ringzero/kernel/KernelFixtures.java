package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Shared test data: fixed instants, mutable gadget and agent stubs, and in-memory ports. */
final class KernelFixtures {

    static final String ALICE = "alice";
    static final String BOB = "bob";
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    /** 12:00 in Berlin (CEST). */
    static final Instant NOON = Instant.parse("2025-06-02T10:00:00Z");
    /** 23:30 in Berlin, inside 22:00–07:00 quiet hours. */
    static final Instant NIGHT = Instant.parse("2025-06-02T21:30:00Z");
    static final QuietHours NIGHTS = new QuietHours(LocalTime.of(22, 0), LocalTime.of(7, 0), BERLIN);

    private KernelFixtures() {
    }

    /** The refusal's reason; fails the test when the verdict is not a refusal. */
    static DenyReason denial(Verdict verdict) {
        assertThat(verdict).isInstanceOf(Verdict.Deny.class);
        return ((Verdict.Deny) verdict).reason();
    }

    static Map<String, Object> payload(Object... keysAndValues) {
        Map<String, Object> payload = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            payload.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return payload;
    }

    /** A gadget whose facts a test changes between decisions, as revocations do. */
    static final class GadgetStub {
        final String id;
        String ownerId;
        boolean paired = true;
        boolean online = true;
        final Set<String> commands = new HashSet<>(Set.of("speaker.say", "speaker.play_url", "speaker.stop",
                "display.show_text", "chassis.drive", "chassis.stop", "arm.move", "device.ota", "device.discover",
                "device.unpair"));
        QuietHours quietHours;

        GadgetStub(String id, String ownerId) {
            this.id = id;
            this.ownerId = ownerId;
        }

        GadgetFacts facts() {
            return new GadgetFacts(id, ownerId, paired, online, commands, Optional.ofNullable(quietHours));
        }
    }

    /** An agent whose grants a test changes between decisions, as the owner does. */
    static final class AgentStub {
        final String id;
        String ownerId;
        boolean enabled = true;
        int revision = 3;
        final Set<String> commands = new HashSet<>(Set.of("speaker.say", "speaker.play_url", "speaker.stop",
                "display.show_text", "chassis.drive", "chassis.stop", "arm.move"));
        final Set<String> intents = new HashSet<>(Set.of("email.send", "webhook.post"));
        final Set<String> tools = new HashSet<>(Set.of("state.get", "calendar.today"));
        boolean physical = true;

        AgentStub(String id, String ownerId) {
            this.id = id;
            this.ownerId = ownerId;
        }

        AgentFacts facts() {
            return new AgentFacts(id, ownerId, enabled, revision, commands, intents, tools, physical);
        }

        Subject.AgentRun run() {
            return new Subject.AgentRun(ownerId, id, revision, "run-" + id);
        }
    }

    /** Facts read live from the stubs, like an adapter reading the database at call time. */
    static final class FakeFacts implements PolicyFacts {
        private final Map<String, GadgetStub> gadgets = new HashMap<>();
        private final Map<String, AgentStub> agents = new HashMap<>();

        FakeFacts with(GadgetStub gadget) {
            gadgets.put(gadget.id, gadget);
            return this;
        }

        FakeFacts with(AgentStub agent) {
            agents.put(agent.id, agent);
            return this;
        }

        void forget(String agentId) {
            agents.remove(agentId);
        }

        @Override
        public Optional<GadgetFacts> gadget(String gadgetId) {
            return Optional.ofNullable(gadgets.get(gadgetId)).map(GadgetStub::facts);
        }

        @Override
        public Optional<AgentFacts> agent(String agentId) {
            return Optional.ofNullable(agents.get(agentId)).map(AgentStub::facts);
        }
    }

    /**
     * Trust rules and history in memory. It hands back every rule whoever asks, so the kernel's own
     * owner filter is what keeps another account's rules out.
     */
    static final class FakeTrust implements TrustRules, TrustHistory {
        final List<TrustRule> rules = new ArrayList<>();
        private final List<Object[]> decisions = new ArrayList<>();
        final List<String> queries = new ArrayList<>();

        FakeTrust rule(TrustRule rule) {
            rules.add(rule);
            return this;
        }

        void decided(String agentId, String intent, String ruleId, Instant at, boolean approved, boolean executed) {
            decisions.add(new Object[] {agentId, intent, ruleId, new Disposition(at, approved, executed)});
        }

        void approvedAndExecuted(String agentId, String intent, String ruleId, Instant... times) {
            for (Instant at : times) {
                decided(agentId, intent, ruleId, at, true, true);
            }
        }

        @Override
        public List<TrustRule> rulesOf(String ownerId) {
            return List.copyOf(rules);
        }

        @Override
        public List<Disposition> recent(String ownerId, String agentId, String intent, String ruleId, Instant since) {
            queries.add(String.join("|", ownerId, agentId, intent, ruleId, since.toString()));
            // returns everything, even outside the window: the ladder must not trust the adapter's filter
            return decisions.stream()
                    .filter(d -> d[0].equals(agentId) && d[1].equals(intent) && d[2].equals(ruleId))
                    .map(d -> (Disposition) d[3])
                    .toList();
        }
    }

    static TrustRule rule(String id, String ownerId, String agentId, String intent, Map<String, String> predicate,
            TrustLevel level) {
        return TrustRule.of(id, ownerId, Optional.ofNullable(agentId), intent, predicate, level);
    }

    static TrustRule earnedRule(String id, String intent, int earnAfter, Duration window) {
        return new TrustRule(id, ALICE, Optional.empty(), intent, Map.of(), TrustLevel.EARNED, earnAfter, window);
    }
}
