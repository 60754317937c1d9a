package dev.ringzero.workflow;

import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.RunEngine;
import dev.ringzero.agents.runs.RunRequest;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Starts {@code agent-run} instances: business key = run id. The agent's id is stored with the
 * instance, so an analyst finds an agent's running runs in Cockpit; the rest of the request
 * (revision, trigger, owner, event) is handed to admission as transient variables, which the
 * engine never writes: {@code rz_run} records it once, and each stored variable would cost the
 * run an insert and a delete.
 */
@Component
public class RunLauncher implements RunEngine {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunLauncher.class);

    private final RuntimeService runtime;
    private final RepositoryService repository;
    private final AgentRuns runs;
    private final TransactionTemplate transactions;
    private final ProcessInstances instances;
    /** Models are deployed once, at start: the latest agent-run is looked up once, not per run. */
    private volatile String definitionId;

    // @Lazy: a resolved gate's continuation starts a run, so runs -> the gate desk -> continuations ->
    // this launcher -> runs is a cycle of beans (not of packages: each side owns its port)
    RunLauncher(RuntimeService runtime, RepositoryService repository, @Lazy AgentRuns runs,
            TransactionTemplate transactions, ProcessInstances instances) {
        this.instances = instances;
        this.runtime = runtime;
        this.repository = repository;
        this.runs = runs;
        this.transactions = transactions;
    }

    @Override
    public String start(RunRequest request) {
        return runtime.createProcessInstanceById(definitionId()).businessKey(request.runId())
                .setVariables(variables(request)).execute().getId();
    }

    /** What a run's instance starts with: the agent's id stored, the rest of the request transient. */
    static VariableMap variables(RunRequest request) {
        return Variables.createVariables()
                .putValue(ProcessIds.VAR_AGENT_ID, request.agentId())
                .putValueTyped(ProcessIds.VAR_REVISION, Variables.integerValue(request.revision(), true))
                .putValueTyped(ProcessIds.VAR_TRIGGER_KIND, Variables.stringValue(request.triggerKind(), true))
                .putValueTyped(ProcessIds.VAR_OWNER_ID, Variables.stringValue(request.ownerId(), true))
                .putValueTyped(RunVariables.TRIGGER_DATA, Variables.stringValue(request.triggerData(), true))
                .putValueTyped(RunVariables.EVENT_ID, Variables.stringValue(request.eventId(), true))
                .putValueTyped(RunVariables.PROACTIVE, Variables.booleanValue(request.proactive(), true));
    }

    /**
     * At start: runs still waiting in an older {@code agent-run} model (deployed by the platform
     * before an upgrade) are cancelled and end {@code failed} ({@code model_replaced}). The steps of
     * an older model need variables and delegates this build no longer provides, so such a run
     * would stop in an incident, and a queued one would block its agent's concurrency for good.
     * Returns the cancelled run ids.
     */
    @org.springframework.context.event.EventListener(org.springframework.boot.context.event.ApplicationReadyEvent.class)
    public java.util.List<String> retireRunsOfOlderModels() {
        definitionId = null;
        String current = definitionId();
        java.util.List<String> retired = new java.util.ArrayList<>();
        for (ProcessInstance instance : runtime.createProcessInstanceQuery().processDefinitionKey(ProcessIds.AGENT_RUN)
                .list()) {
            if (current.equals(instance.getProcessDefinitionId())) {
                continue;
            }
            transactions.executeWithoutResult(status -> {
                instances.retire(instance.getId(), "model_replaced");
                runs.abandon(instance.getBusinessKey(), "model_replaced");
            });
            retired.add(instance.getBusinessKey());
        }
        if (!retired.isEmpty()) {
            log.warn("{} runs of an older agent-run model were ended (model_replaced)", retired.size());
        }
        return retired;
    }

    private String definitionId() {
        String id = definitionId;
        if (id == null) {
            id = repository.createProcessDefinitionQuery().processDefinitionKey(ProcessIds.AGENT_RUN)
                    .latestVersion().singleResult().getId();
            definitionId = id;
        }
        return id;
    }
}
