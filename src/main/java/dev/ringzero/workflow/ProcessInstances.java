package dev.ringzero.workflow;

import org.camunda.bpm.engine.RuntimeService;
import org.springframework.stereotype.Component;

/**
 * The one place process instances are ended from outside their models: a fenced or restarted
 * run, a schedule whose agent changed, a run of a model this build replaced. The reason is what
 * an analyst reads in the instance's history.
 */
@Component
class ProcessInstances {

    private final RuntimeService runtime;

    ProcessInstances(RuntimeService runtime) {
        this.runtime = runtime;
    }

    /** Ends every instance of {@code processKey} whose business key is {@code businessKey}. */
    void cancel(String processKey, String businessKey, String reason) {
        runtime.createProcessInstanceQuery().processDefinitionKey(processKey).processInstanceBusinessKey(businessKey)
                .list().forEach(instance -> runtime.deleteProcessInstance(instance.getId(), reason));
    }

    /**
     * Ends an instance of an older model: its listeners and I/O mappings are skipped, since the
     * delegates they name may be gone from this build.
     */
    void retire(String instanceId, String reason) {
        runtime.deleteProcessInstance(instanceId, reason, true, true);
    }
}
