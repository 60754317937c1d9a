package dev.ringzero.workflow;

import dev.ringzero.agents.runs.RunRequest;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;
import org.springframework.stereotype.Component;

/**
 * Starts {@code agent-run} instances: business key = run id. What an analyst reads in Cockpit
 * (agent, revision, trigger kind, status) is stored with the instance; the rest of the request
 * (owner, trigger data, event) is handed to admission as transient variables, which the engine
 * never writes: {@code rz_run} records it once.
 */
@Component
public class RunLauncher {

    private final RuntimeService runtime;
    private final RepositoryService repository;
    /** Models are deployed once, at start: the latest agent-run is looked up once, not per run. */
    private volatile String definitionId;

    RunLauncher(RuntimeService runtime, RepositoryService repository) {
        this.runtime = runtime;
        this.repository = repository;
    }

    /**
     * Starts the run in the caller's transaction: admission, preparation and the first action's
     * dispatch happen before this returns (the command leaves once the caller commits).
     */
    public String start(RunRequest request) {
        VariableMap variables = Variables.createVariables()
                .putValue(ProcessIds.VAR_AGENT_ID, request.agentId())
                .putValue(ProcessIds.VAR_REVISION, request.revision())
                .putValue(ProcessIds.VAR_TRIGGER_KIND, request.triggerKind())
                .putValueTyped(ProcessIds.VAR_OWNER_ID, Variables.stringValue(request.ownerId(), true))
                .putValueTyped(RunVariables.TRIGGER_DATA, Variables.stringValue(request.triggerData(), true))
                .putValueTyped(RunVariables.EVENT_ID, Variables.stringValue(request.eventId(), true))
                .putValueTyped(RunVariables.PROACTIVE, Variables.booleanValue(request.proactive(), true));
        return runtime.createProcessInstanceById(definitionId()).businessKey(request.runId())
                .setVariables(variables).execute().getId();
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
