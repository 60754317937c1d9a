package dev.ringzero.agents.runs;

import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.AgentSpec;

/** What a run needs of its agent: the admission lock, the revision it runs under, its state. */
interface RunAgents {

    /** Holds the agent's row until the transaction ends: its admissions run one at a time. */
    void lock(String agentId);

    /** The revision a run was admitted under. */
    AgentSpec spec(String agentId, int revision);

    /** The agent's state as templates read it (empty when the agent is gone). */
    Map<String, Object> state(String agentId);

    /** The agent's state as stored, with its version (empty when the agent is gone). */
    java.util.Optional<AgentStore.Agent> stored(String agentId);

    /** Compare and set: replaces the state if it is still at {@code version}; false if it moved on. */
    boolean writeState(String agentId, int version, String state, java.time.Instant at);

    static RunAgents of(AgentStore store, AgentService agents, ObjectMapper json) {
        return new RunAgents() {
            @Override
            public void lock(String agentId) {
                store.lock(agentId);
            }

            @Override
            public AgentSpec spec(String agentId, int revision) {
                return agents.spec(agentId, revision);
            }

            @Override
            public java.util.Optional<AgentStore.Agent> stored(String agentId) {
                return store.find(agentId).filter(agent -> !agent.deleted());
            }

            @Override
            public boolean writeState(String agentId, int version, String state, java.time.Instant at) {
                return store.writeState(agentId, version, state, at).isPresent();
            }

            @Override
            public Map<String, Object> state(String agentId) {
                return store.find(agentId).map(agent -> StoredJson.map(json, agent.state())).orElse(Map.of());
            }
        };
    }
}
