package dev.ringzero.workflow;

import java.util.HashMap;
import java.util.Map;

import dev.ringzero.agents.runs.RunRequest;
import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/** Starts {@code agent-run} instances: business key = run id, variables an analyst can read in Cockpit. */
@Component
public class RunLauncher {

    private final RuntimeService runtime;
    private final dev.ringzero.accounts.CamundaIdentity camunda;

    RunLauncher(RuntimeService runtime, dev.ringzero.accounts.CamundaIdentity camunda) {
        this.runtime = runtime;
        this.camunda = camunda;
    }

    /** Starts the run in the caller's transaction; admission happens before this returns. */
    public String start(RunRequest request) {
        Map<String, Object> variables = new HashMap<>();
        variables.put(ProcessIds.VAR_RUN_ID, request.runId());
        variables.put("agentId", request.agentId());
        variables.put(ProcessIds.VAR_OWNER_ID, request.ownerId());
        variables.put("revision", request.revision());
        variables.put("triggerKind", request.triggerKind());
        variables.put("triggerData", request.triggerData());
        variables.put("eventId", request.eventId());
        variables.put("proactive", request.proactive());
        String instanceId = runtime.startProcessInstanceByKey(ProcessIds.AGENT_RUN, request.runId(), variables).getId();
        // the owner may follow the run in Cockpit (analysts read every run's history)
        camunda.grantInstance(request.ownerId(), instanceId);
        return instanceId;
    }
}
