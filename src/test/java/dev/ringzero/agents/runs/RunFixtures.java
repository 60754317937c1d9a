package dev.ringzero.agents.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.TransactionReads;
import dev.ringzero.agents.definition.AgentSpec;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.Claim;
import dev.ringzero.kernel.Priority;
import liquibase.integration.spring.SpringLiquibase;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What the runs package's unit tests share: a real {@link RunStore} over an in-memory H2 database
 * with the runs' own changelog, and small fakes of the parts' other collaborators.
 */
final class RunFixtures {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String OWNER = "alice";
    static final String AGENT = "agent-1";
    static final String DESK = "desk-1";
    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    private RunFixtures() {
    }

    /** A store of its own: each call is a fresh, empty database. */
    static RunStore store() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:runs-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        for (String changelog : List.of("006-runs.yaml", "008-platform-actions.yaml", "009-cooldown-waits.yaml", "010-budget-minutes.yaml",
                "011-unawaited-answers.yaml", "018-run-action-awaited-by.yaml", "020-run-action-wait.yaml")) {
            SpringLiquibase liquibase = new SpringLiquibase();
            liquibase.setDataSource(dataSource);
            liquibase.setChangeLog("classpath:db/changelog/" + changelog);
            liquibase.setResourceLoader(new DefaultResourceLoader());
            try {
                liquibase.afterPropertiesSet();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return new RunStore(JdbcClient.create(dataSource), new TransactionReads(dataSource), dev.ringzero.SqlDialect.of(dataSource));
    }

    static AgentSpec.Action action(String command, Map<String, Object> params) {
        return new AgentSpec.Action(DESK, command, params);
    }

    static AgentSpec spec(AgentSpec.Concurrency concurrency, int maxParallel, int maxRunSeconds,
            AgentSpec.Action... actions) {
        return new AgentSpec("test agent", null, List.of(DESK), AgentSpec.Kind.RULES, List.of(), List.of(actions),
                null, null, new AgentSpec.Budget(60, 0, maxRunSeconds, 8, 4000), concurrency, maxParallel, true, null,
                false);
    }

    static AgentSpec spec(AgentSpec.Action... actions) {
        return spec(AgentSpec.Concurrency.SINGLE, 1, 30, actions);
    }

    /** Records a run of {@link #AGENT} in {@code status}, created (and, if running, started) at {@code at}. */
    static RunStore.Run insertRun(RunStore store, String runId, RunStatus status, Instant at) {
        boolean active = RunStatus.ACTIVE.contains(status.wire());
        RunStore.Run run = new RunStore.Run(runId, AGENT, OWNER, 1, "gadget.event", "{\"event\":{\"name\":\"shaken\"}}",
                "event-" + runId, true, status, null, at, status == RunStatus.RUNNING ? at : null, active ? null : at);
        store.insert(run, active);
        return run;
    }

    /** Records a running run with these actions, not yet sent. */
    static RunStore.Run runningWithActions(RunStore store, String runId, Instant at, String... commands) {
        RunStore.Run run = insertRun(store, runId, RunStatus.RUNNING, at);
        List<RunStore.NewAction> actions = new ArrayList<>();
        for (String command : commands) {
            actions.add(new RunStore.NewAction(DESK, command, "{\"text\":\"hi\"}"));
        }
        store.insertActions(runId, actions, at);
        return run;
    }

    /** Agents by id: one spec for every revision, a state, and the locks taken. */
    static final class FakeAgents implements RunAgents {

        final Map<String, AgentSpec> specs = new HashMap<>();
        /** Specs of single revisions ("agent#2"), where a test has an agent revised; else {@link #specs}. */
        final Map<String, AgentSpec> revisions = new HashMap<>();
        /** Agents' current revisions, as {@link #stored} gives them (else 1). */
        final Map<String, Integer> current = new HashMap<>();
        final Map<String, Map<String, Object>> states = new HashMap<>();
        final List<String> locked = new ArrayList<>();

        FakeAgents with(String agentId, AgentSpec spec) {
            specs.put(agentId, spec);
            return this;
        }

        /** The agent revised to {@code revision}, which is {@code spec}; older revisions keep theirs. */
        FakeAgents revised(String agentId, int revision, AgentSpec spec) {
            revisions.put(agentId + "#" + revision, spec);
            current.put(agentId, revision);
            return this;
        }

        @Override
        public void lock(String agentId) {
            locked.add(agentId);
        }

        @Override
        public AgentSpec spec(String agentId, int revision) {
            AgentSpec spec = revisions.getOrDefault(agentId + "#" + revision, specs.get(agentId));
            if (spec == null) {
                throw new IllegalStateException("no agent " + agentId);
            }
            return spec;
        }

        @Override
        public Map<String, Object> state(String agentId) {
            return states.getOrDefault(agentId, Map.of());
        }

        /** The stored state documents and their versions, as {@link #stored} and {@link #writeState} see them. */
        final Map<String, String> storedStates = new HashMap<>();
        final Map<String, Integer> versions = new HashMap<>();
        /** How many of the next writes find that another run wrote first. */
        int conflicts;

        @Override
        public java.util.Optional<dev.ringzero.agents.AgentStore.Agent> stored(String agentId) {
            if (!specs.containsKey(agentId)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new dev.ringzero.agents.AgentStore.Agent(agentId, OWNER, "agent",
                    current.getOrDefault(agentId, 1), true,
                    false, storedStates.getOrDefault(agentId, "{}"), versions.getOrDefault(agentId, 0), T0, T0));
        }

        @Override
        public boolean writeState(String agentId, int version, String state, java.time.Instant at) {
            if (versions.getOrDefault(agentId, 0) != version) {
                return false;
            }
            if (conflicts > 0) {
                // another run wrote first: its write lands, this one finds the version moved on
                conflicts--;
                versions.put(agentId, version + 1);
                return false;
            }
            storedStates.put(agentId, state);
            versions.put(agentId, version + 1);
            states.put(agentId, dev.ringzero.StoredJson.map(JSON, state));
            return true;
        }
    }

    /** A speaker floor that answers every request with {@code claim} and notes what it was told. */
    static final class FakeSpeakers implements Speakers {

        Claim claim = new Claim.Granted("unused");
        final List<String> calls = new ArrayList<>();

        @Override
        public Claim request(String gadgetId, String ticket, Priority priority, Instant requestedAt) {
            calls.add("request " + gadgetId + " " + ticket + " " + priority + " " + requestedAt);
            return claim;
        }

        @Override
        public void playing(String invocationId, String gadgetId, String ticket) {
            calls.add("playing " + invocationId + " " + gadgetId + " " + ticket);
        }

        @Override
        public void release(String gadgetId, String ticket) {
            calls.add("release " + gadgetId + " " + ticket);
        }

        @Override
        public void ended(String invocationId) {
            calls.add("ended " + invocationId);
        }
    }

    /** A dispatcher that answers every send with {@code dispatch} and keeps what it was asked. */
    static final class FakeLink implements ActionLink {

        Dispatcher.Dispatch dispatch;
        final List<ActionRequest> sent = new ArrayList<>();
        final Map<String, Outcome> afterWait = new HashMap<>();
        final List<String> asked = new ArrayList<>();

        @Override
        public Dispatcher.Dispatch send(ActionRequest request, String runId) {
            sent.add(request);
            return dispatch;
        }

        @Override
        public Outcome afterWait(String invocationId) {
            asked.add(invocationId);
            return afterWait.getOrDefault(invocationId, new Outcome.Unknown(invocationId));
        }
    }

    /** A kernel that knows {@link #AGENT} at revision 1, enabled (standing is all the state writes ask). */
    static dev.ringzero.kernel.PolicyKernel kernel() {
        dev.ringzero.kernel.AgentFacts agent = new dev.ringzero.kernel.AgentFacts(AGENT, OWNER, true, 1,
                java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), false);
        return new dev.ringzero.kernel.PolicyKernel(new dev.ringzero.kernel.PolicyFacts() {
            @Override
            public java.util.Optional<dev.ringzero.kernel.GadgetFacts> gadget(String gadgetId) {
                return java.util.Optional.empty();
            }

            @Override
            public java.util.Optional<dev.ringzero.kernel.AgentFacts> agent(String agentId) {
                return AGENT.equals(agentId) ? java.util.Optional.of(agent) : java.util.Optional.empty();
            }
        }, dev.ringzero.kernel.TrustRules.NONE, dev.ringzero.kernel.TrustHistory.NONE);
    }

    /** An approval desk that notes every filing, refusal and auto-execution. */
    static final class FakeGates implements GateDesk {

        final List<String> calls = new ArrayList<>();
        final List<Map<String, Object>> filedParams = new ArrayList<>();

        @Override
        public String fileForRun(String ownerId, String agentId, String runId, String gadgetId, String command,
                Map<String, Object> params, String ruleId) {
            calls.add("file " + runId + " " + gadgetId + " " + command + " " + ruleId);
            filedParams.add(params);
            return "gate-1";
        }

        /** What {@link #fileIntent} answers; a gate by default. */
        IntentFiled intentAnswer = new Gated("gate-2");

        @Override
        public IntentFiled fileIntent(String ownerId, String agentId, int revision, String runId, String intent,
                Map<String, Object> payload) {
            calls.add("intent " + runId + " " + intent + " " + payload);
            return intentAnswer;
        }

        @Override
        public void refused(String ownerId, String agentId, String runId, String command, String reason) {
            calls.add("refused " + runId + " " + command + " " + reason);
        }

        @Override
        public void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId,
                String outcome) {
            calls.add("auto " + runId + " " + command + " " + outcome);
        }
    }
}
