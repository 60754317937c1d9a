package dev.ringzero.workflow;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.ringzero.gates.Gate;
import dev.ringzero.gates.GateEngine;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ManagementService;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.TaskService;
import org.camunda.bpm.engine.task.Task;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The engine side of a gate: start its process, complete its review task as the owner, end it
 * when fenced, wake it when its device answered, and tell whether it still carries on.
 */
@Component
public class GateProcess implements GateEngine {

    /** The device answered the gate's invocation (business key = gate id). */
    public static final String MESSAGE_GATE_ANSWERED = "gateAnswered";
    /** The gate was fenced while it waited for the owner. */
    public static final String MESSAGE_GATE_FENCED = "gateFenced";
    public static final String TASK_REVIEW = "Task_ReviewGate";
    /** The Tasklist filter every owner sees their gates in. */
    public static final String TASKLIST_FILTER = "My gates";

    private final RuntimeService runtime;
    private final TaskService tasks;
    private final ManagementService management;
    private final org.camunda.bpm.engine.FilterService filters;
    private final IdentityService identity;
    private final CamundaIdentity camunda;
    private final Duration expiry;

    GateProcess(RuntimeService runtime, TaskService tasks, ManagementService management,
            org.camunda.bpm.engine.FilterService filters, IdentityService identity, CamundaIdentity camunda,
            @Value("${ringzero.gates.expiry:P7D}") Duration expiry) {
        this.runtime = runtime;
        this.filters = filters;
        this.tasks = tasks;
        this.management = management;
        this.identity = identity;
        this.camunda = camunda;
        this.expiry = expiry;
    }

    /**
     * Tasklist lists nothing without a filter: one shared filter shows each person the tasks they
     * are a candidate for or assigned to (their own gates only; the engine's authorization still
     * decides). Idempotent, at every start.
     */
    @org.springframework.context.event.EventListener(org.springframework.boot.context.event.ApplicationReadyEvent.class)
    public void ensureTasklistFilter() {
        if (filters.createFilterQuery().filterName(TASKLIST_FILTER).count() > 0) {
            return;
        }
        org.camunda.bpm.engine.task.TaskQuery mine = tasks.createTaskQuery()
                .taskCandidateUserExpression("${currentUser()}").includeAssignedTasks();
        Map<String, Object> properties = new HashMap<>();
        properties.put("description", "Gated actions waiting for your decision");
        properties.put("priority", -10);
        properties.put("refresh", true);
        filters.saveFilter(filters.newTaskFilter(TASKLIST_FILTER).setQuery(mine).setProperties(properties));
    }

    @Override
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
    @Override
    public boolean completeReview(Gate gate, String userId, boolean approve, String note) {
        Task task = tasks.createTaskQuery().processInstanceId(gate.processInstanceId())
                .taskDefinitionKey(TASK_REVIEW).singleResult();
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
        } catch (RuntimeException e) {
            // a decision that lost the race: the engine may fail it with a ProcessEngineException, or,
            // completing a task whose execution the winner just ended, with an NPE of its own
            // (PvmExecutionImpl.getParentActivityInstanceId); either way the task is gone
            if (tasks.createTaskQuery().taskId(task.getId()).count() == 0) {
                return false;
            }
            throw e;
        } finally {
            identity.clearAuthentication();
        }
    }

    /**
     * Runs {@code work} as the platform rather than as the person whose action triggered it (a
     * continuation started while the owner's decision commits must not need the owner's grants).
     */
    @Override
    public void asPlatform(Runnable work) {
        org.camunda.bpm.engine.impl.identity.Authentication current = identity.getCurrentAuthentication();
        identity.clearAuthentication();
        try {
            work.run();
        } finally {
            if (current != null) {
                identity.setAuthentication(current);
            }
        }
    }

    @Override
    public java.util.Optional<String> reviewTaskId(Gate gate) {
        if (gate.processInstanceId() == null) {
            return java.util.Optional.empty();
        }
        return tasks.createTaskQuery().processInstanceId(gate.processInstanceId()).taskDefinitionKey(TASK_REVIEW)
                .list().stream().map(Task::getId).findFirst();
    }

    /** Ends a fenced gate's review cleanly (the model's "Fenced" end event), if it still waits. */
    @Override
    public void fence(Gate gate) {
        if (gate.processInstanceId() != null) {
            runtime.createMessageCorrelation(MESSAGE_GATE_FENCED).processInstanceId(gate.processInstanceId())
                    .correlateAll();
        }
    }

    /** Moves a gate that waits for its device's answer on; nothing if it does not wait. */
    @Override
    public void answered(String gateId) {
        runtime.createMessageCorrelation(MESSAGE_GATE_ANSWERED).processInstanceBusinessKey(gateId).correlateAll();
    }

    /**
     * Whether the gate's process will still act on it by itself: the instance is running and none
     * of its jobs has run out of retries (a stuck job is an incident for Cockpit, not a carrier).
     */
    @Override
    public boolean carriesOn(Gate gate) {
        if (gate.processInstanceId() == null) {
            return false;
        }
        boolean running = runtime.createProcessInstanceQuery().processInstanceId(gate.processInstanceId()).active()
                .count() > 0;
        return running && management.createJobQuery().processInstanceId(gate.processInstanceId()).noRetriesLeft()
                .count() == 0;
    }
}
