package dev.ringzero.gates;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.runs.RunRequest;
import dev.ringzero.agents.runs.RunEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Wakes an agent whose gate resolved, when its current definition says so ({@code wakeOnResolve},
 * or an {@code onGate} list for the outcome; {@code AgentSpec#wakesOn}): a
 * continuation {@code agent-run} with the outcome as its trigger. Started only after the
 * resolution commits (a rolled-back decision wakes nobody), in a transaction of its own, so a
 * continuation that cannot start never undoes the resolution.
 */
@Component
class Continuations implements GateResolved {

    private static final Logger log = LoggerFactory.getLogger(Continuations.class);

    private final AgentService agents;
    private final RunEngine launcher;
    private final GateEngine process;
    private final TransactionTemplate requiresNew;
    private final ObjectMapper json;

    Continuations(AgentService agents, RunEngine launcher, GateEngine process,
            PlatformTransactionManager transactions, ObjectMapper json) {
        this.agents = agents;
        this.launcher = launcher;
        this.process = process;
        this.requiresNew = new TransactionTemplate(transactions);
        this.requiresNew.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.json = json;
    }

    /** Called in the transaction that resolved {@code gate}. */
    @Override
    public void resolved(Gate gate) {
        if (gate.agentId() == null || gate.auto()) {
            return; // the owner's own gate, or an auto-execution whose result went straight back to the run
        }
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    wake(gate);
                }
            });
        } else {
            wake(gate);
        }
    }

    private void wake(Gate gate) {
        try {
            agents.find(gate.agentId()).filter(current -> current.spec().wakesOn(gate.state().wire())).ifPresent(current -> {
                String runId = UUID.randomUUID().toString();
                String trigger = trigger(gate);
                process.asPlatform(() -> requiresNew.executeWithoutResult(status -> launcher.start(new RunRequest(
                        runId, gate.agentId(), gate.ownerId(), current.agent().currentRevision(), "continuation",
                        trigger, null, false))));
                log.info("gate {} {}: continuation run {} of agent {}", gate.id(), gate.state().wire(), runId,
                        gate.agentId());
            });
        } catch (RuntimeException e) {
            log.warn("gate {}: the continuation of agent {} could not start: {}", gate.id(), gate.agentId(),
                    e.toString());
        }
    }

    private String trigger(Gate gate) {
        Map<String, Object> gateOutcome = new LinkedHashMap<>();
        gateOutcome.put("id", gate.id());
        gateOutcome.put("intent", gate.intent());
        gateOutcome.put("state", gate.state().wire());
        gateOutcome.put("result", tree(gate.result()));
        gateOutcome.put("decidedBy", gate.decision().decidedBy());
        gateOutcome.put("note", gate.decision().note());
        gateOutcome.put("runId", gate.runId());
        Map<String, Object> trigger = new LinkedHashMap<>();
        trigger.put("kind", "continuation");
        trigger.put("gate", gateOutcome);
        try {
            return json.writeValueAsString(trigger);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode tree(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            return json.getNodeFactory().textNode(text);
        }
    }
}
