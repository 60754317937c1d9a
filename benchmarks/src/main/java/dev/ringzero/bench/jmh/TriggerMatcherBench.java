package dev.ringzero.bench.jmh;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.TriggerMatcher;
import dev.ringzero.agents.definition.AgentSpec;
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
 * {@link TriggerMatcher#evaluate} alone, on specs parsed with {@link AgentSpec#from}:
 * <ul>
 *   <li>{@code plainMatch}: the load benchmark's agent — one gadget.event trigger, no filter.</li>
 *   <li>{@code filteredMatch}: days, hours in a time zone and a data filter, all passing.</li>
 *   <li>{@code filteredOut}: the same spec, a gentle shake: refused at the data filter.</li>
 *   <li>{@code fifthOfFiveTriggers}: four triggers for other events or gadgets, the fifth matches.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.SampleTime, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TriggerMatcherBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentSpec plain;
    private AgentSpec filtered;
    private AgentSpec fiveTriggers;
    private Map<String, Object> hard;
    private Map<String, Object> gentle;
    private Instant mondayMorning;

    @Setup
    public void setUp() throws Exception {
        plain = AgentSpec.from(JSON.readTree("""
                {"apiVersion":"ringzero/v1","name":"show","gadgets":["desk-1"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"desk-1","event":"shaken"}],
                 "actions":[{"gadget":"desk-1","command":"display.show_text","params":{"text":"{{event.id}}"}}],
                 "allow":{"commands":["display.show_text"]}}
                """));
        filtered = AgentSpec.from(JSON.readTree("""
                {"apiVersion":"ringzero/v1","name":"bark","gadgets":["desk-1"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"desk-1","event":"shaken",
                              "when":{"hours":[6,10],"days":["mon","tue","wed","thu","fri"],
                                      "timeZone":"Europe/Berlin","data":{"strength":"hard"}}},
                             {"kind":"invoke"}],
                 "actions":[{"gadget":"desk-1","command":"speaker.play_url","params":{"url":"https://example.org/bark.mp3"}}],
                 "allow":{"commands":["speaker.play_url"]}}
                """));
        fiveTriggers = AgentSpec.from(JSON.readTree("""
                {"apiVersion":"ringzero/v1","name":"five","gadgets":["desk-1","desk-2"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"desk-2","event":"shaken"},
                             {"kind":"gadget.event","gadget":"desk-1","event":"picked_up"},
                             {"kind":"gadget.event","gadget":"desk-1","event":"put_down"},
                             {"kind":"gadget.event","gadget":"desk-2","event":"picked_up"},
                             {"kind":"gadget.event","gadget":"desk-1","event":"shaken","when":{"data":{"strength":"hard"}}}],
                 "actions":[{"gadget":"desk-1","command":"display.show_text","params":{"text":"hi"}}],
                 "allow":{"commands":["display.show_text"]}}
                """));
        hard = new LinkedHashMap<>();
        hard.put("peak_g", 2.4);
        hard.put("strength", "hard");
        gentle = new LinkedHashMap<>();
        gentle.put("peak_g", 1.9);
        gentle.put("strength", "gentle");
        mondayMorning = Instant.parse("2025-06-02T06:30:00Z"); // 08:30 in Berlin, a Monday
        expect(plainMatch(), TriggerMatcher.Matched.class);
        expect(filteredMatch(), TriggerMatcher.Matched.class);
        expect(filteredOut(), TriggerMatcher.FilteredOut.class);
        expect(fifthOfFiveTriggers(), TriggerMatcher.Matched.class);
    }

    private static void expect(TriggerMatcher.Match m, Class<?> type) {
        if (!type.isInstance(m)) {
            throw new IllegalStateException("expected " + type.getSimpleName() + ", got " + m);
        }
    }

    @Benchmark
    public TriggerMatcher.Match plainMatch() {
        return TriggerMatcher.evaluate(plain, "desk-1", "shaken", hard, mondayMorning);
    }

    @Benchmark
    public TriggerMatcher.Match filteredMatch() {
        return TriggerMatcher.evaluate(filtered, "desk-1", "shaken", hard, mondayMorning);
    }

    @Benchmark
    public TriggerMatcher.Match filteredOut() {
        return TriggerMatcher.evaluate(filtered, "desk-1", "shaken", gentle, mondayMorning);
    }

    @Benchmark
    public TriggerMatcher.Match fifthOfFiveTriggers() {
        return TriggerMatcher.evaluate(fiveTriggers, "desk-1", "shaken", hard, mondayMorning);
    }
}
