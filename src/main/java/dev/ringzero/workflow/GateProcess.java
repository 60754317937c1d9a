package dev.ringzero.workflow;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.ringzero.accounts.CamundaIdentity;
import dev.ringzero.gates.Gate;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/** The engine side of a gate: start its process, complete its review task as the owner. */
@Component
public class GateProcess {

    private final RuntimeService runtime;
    private final TaskService tasks;
    private final IdentityService identity;
    private final CamundaIdentity camunda;
    private final Duration expiry;

    GateProcess(RuntimeService runtime, TaskService tasks, IdentityService identity, CamundaIdentity camunda,
            @Value("${ringzero.gates.expiry:P7D}") Duration expiry) {
        this.runtime = runtime;
        this.tasks = tasks;
        this.identity = identity;
        this.camunda = camunda;
        this.expiry = expiry;
    }

    public String start(Gate gate, Map<String, Object> readable) {
        Map<String, Object> variables = new HashMap<>(readable);
        variables.put(ProcessIds.VAR_GATE_ID, gate.id());
        variables.put(ProcessIds.VAR_OWNER_ID, gate.ownerId());
        variables.put("expiresAfter", expiry.toString());
        String instanceId = runtime.startProcessInstanceByKey(ProcessIds.GATE, gate.id(), variables).getId();
        camunda.grantInstance(gate.ownerId(), instanceId);
        return instanceId;
    }

    /**
     * Completes the review task with the owner as the authenticated user, so the engine's
     * authorization applies as in Tasklist. False if the task is already gone (decided).
     */
    public boolean completeReview(Gate gate, String userId, boolean approve, String note) {
        Task task = tasks.createTaskQuery().processInstanceId(gate.processInstanceId())
                .taskDefinitionKey("Task_ReviewGate").singleResult();
        if (task == null) {
            return false;
        }
        Map<String, Object> variables = new HashMap<>();
        variables.put(ProcessIds.VAR_DECISION, approve ? "approve" : "deny");
        variables.put(ProcessIds.VAR_NOTE, note == null ? "" : note);
        identity.setAuthenticatedUserId(userId);
        try {
            tasks.complete(task.getId(), variables);
            return true;
        } catch (OptimisticLockingException e) {
            return false;
        } catch (ProcessEngineException e) {
            if (tasks.createTaskQuery().taskId(task.getId()).count() == 0) {
                return false;
            }
            throw e;
        } finally {
            identity.clearAuthentication();
        }
    }
}
