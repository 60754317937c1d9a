package dev.ringzero.bench.jmh;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.AgentFacts;
import dev.ringzero.kernel.GadgetFacts;
import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.QuietHours;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustLevel;
import dev.ringzero.kernel.TrustRule;
import dev.ringzero.kernel.TrustRules;
import dev.ringzero.kernel.Verdict;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link PolicyKernel#decide(ActionRequest)} alone, with facts served from memory (the production
 * adapter reads PostgreSQL; that cost is the load benchmark's). Cases:
 * <ul>
 *   <li>{@code agentShowText}: the load benchmark's action — an agent run, {@code display.show_text},
 *       no trust rules: every check passes and the ladder answers its default (auto).</li>
 *   <li>{@code agentSayQuietHoursWithRules}: background sound on a gadget with quiet hours (checked, not
 *       inside), and an owner with 20 trust rules, none matching: the longest allow path.</li>
 *   <li>{@code agentDriveGated}: a moving command with the physical grant: the ladder gates it.</li>
 *   <li>{@code ownerDirect}: the owner's direct command path (no agent checks, no ladder).</li>
 *   <li>{@code agentNotAllowed}: refused at the grant check.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.SampleTime, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KernelDecideBench {

    private PolicyKernel kernel;
    private ActionRequest agentShowText;
    private ActionRequest agentSayQuiet;
    private ActionRequest agentDrive;
    private ActionRequest ownerDirect;
    private ActionRequest agentNotAllowed;

    @Setup
    public void setUp() {
        Set<String> deskCommands = Set.of("speaker.say", "speaker.play_url", "speaker.stop", "speaker.status",
                "display.show_text", "imu.read", "device.health");
        Map<String, GadgetFacts> gadgets = Map.of(
                "desk-1", new GadgetFacts("desk-1", "alice", true, true, deskCommands, Optional.empty()),
                "desk-2", new GadgetFacts("desk-2", "alice", true, true, deskCommands,
                        Optional.of(new QuietHours(LocalTime.of(23, 0), LocalTime.of(0, 30), ZoneId.of("Europe/Berlin")))),
                "rover-1", new GadgetFacts("rover-1", "alice", true, true,
                        Set.of("chassis.drive", "chassis.move", "chassis.stop", "chassis.status"), Optional.empty()));
        Map<String, AgentFacts> agents = Map.of(
                "agent-1", new AgentFacts("agent-1", "alice", true, 3,
                        Set.of("display.show_text", "speaker.say", "chassis.drive"), Set.of(), Set.of(), true));
        PolicyFacts facts = new PolicyFacts() {
            @Override
            public Optional<GadgetFacts> gadget(String gadgetId) {
                return Optional.ofNullable(gadgets.get(gadgetId));
            }

            @Override
            public Optional<AgentFacts> agent(String agentId) {
                return Optional.ofNullable(agents.get(agentId));
            }
        };
        List<TrustRule> rules = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rules.add(TrustRule.of("rule-" + i, "alice", Optional.of("agent-" + (i + 2)), "email.*",
                    Map.of("to", "*@example.org"), TrustLevel.AUTO));
        }
        TrustRules manyRules = ownerId -> "alice".equals(ownerId) ? rules : List.of();
        kernel = new PolicyKernel(facts, manyRules, TrustHistory.NONE);

        // 12:00 UTC: outside desk-2's quiet hours, so the sound is allowed after the check
        Instant noon = Instant.parse("2025-06-02T12:00:00Z");
        Subject.AgentRun run = new Subject.AgentRun("alice", "agent-1", 3, "run-1");
        agentShowText = new ActionRequest(run, "desk-1", "display.show_text",
                Map.of("text", "3f2a9c1e-6a41-4a57-9d7e-1c0e8f6b2d11|agent-1"), Priority.PROACTIVE, noon);
        agentSayQuiet = new ActionRequest(run, "desk-2", "speaker.say", Map.of("text", "good morning"),
                Priority.PROACTIVE, noon);
        agentDrive = new ActionRequest(run, "rover-1", "chassis.drive", Map.of("left", 20, "right", 20),
                Priority.PROACTIVE, noon);
        ownerDirect = new ActionRequest(new Subject.Owner("alice"), "desk-1", "speaker.say", Map.of("text", "hi"),
                Priority.INTERACTION, noon);
        agentNotAllowed = new ActionRequest(run, "desk-1", "speaker.play_url", Map.of("url", "https://x"),
                Priority.PROACTIVE, noon);
        check(kernel.decide(agentShowText), "allow");
        check(kernel.decide(agentSayQuiet), "allow");
        check(kernel.decide(agentDrive), "gate");
        check(kernel.decide(ownerDirect), "allow");
        check(kernel.decide(agentNotAllowed), "deny");
    }

    private static void check(Verdict v, String expected) {
        if (!v.wire().equals(expected)) {
            throw new IllegalStateException("expected " + expected + ", the kernel said " + v);
        }
    }

    @Benchmark
    public Verdict agentShowText() {
        return kernel.decide(agentShowText);
    }

    @Benchmark
    public Verdict agentSayQuietHoursWithRules() {
        return kernel.decide(agentSayQuiet);
    }

    @Benchmark
    public Verdict agentDriveGated() {
        return kernel.decide(agentDrive);
    }

    @Benchmark
    public Verdict ownerDirect() {
        return kernel.decide(ownerDirect);
    }

    @Benchmark
    public Verdict agentNotAllowed() {
        return kernel.decide(agentNotAllowed);
    }
}
