package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.cfg.StandaloneInMemProcessEngineConfiguration;
import org.camunda.bpm.engine.impl.persistence.StrongUuidGenerator;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An instance's grants go when it ends, whether it ended in the command that started it or later;
 * only an instance that was never granted skips the engine's delete.
 */
class UngrantedInstancesTest {

    private ProcessEngine engine;

    @BeforeEach
    void engine() {
        StandaloneInMemProcessEngineConfiguration configuration = new StandaloneInMemProcessEngineConfiguration();
        configuration.setJdbcUrl("jdbc:h2:mem:ungranted-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        configuration.setAuthorizationEnabled(true);
        configuration.setIdGenerator(new StrongUuidGenerator()); // as the platform's engine makes ids
        configuration.setProcessEnginePlugins(List.of(new UngrantedInstances()));
        engine = configuration.buildProcessEngine();
        engine.getRepositoryService().createDeployment()
                .addModelInstance("at-once.bpmn", model("atOnce", false))
                .addModelInstance("waits.bpmn", model("waits", true))
                .deploy();
    }

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void aGrantMadeWhereTheInstanceStartedGoesWhenItEndsThere() {
        ProcessInstance instance = start("atOnce", "alice");

        assertThat(ended(instance)).isTrue();
        assertThat(grantsOn(instance)).isZero();
    }

    @Test
    void aGrantOnAnInstanceThatWaitedGoesWhenItEndsLater() {
        ProcessInstance instance = start("waits", "alice");
        assertThat(grantsOn(instance)).isEqualTo(1);

        engine.getRuntimeService().signal(engine.getRuntimeService().createExecutionQuery()
                .processInstanceId(instance.getId()).activityId("Wait").singleResult().getId());

        assertThat(ended(instance)).isTrue();
        assertThat(grantsOn(instance)).isZero();
    }

    @Test
    void anInstanceGrantedToNobodyStartsAndEndsInItsCommand() {
        ProcessInstance instance = start("atOnce", null);

        assertThat(ended(instance)).isTrue();
        assertThat(engine.getHistoryService().createHistoricProcessInstanceQuery()
                .processInstanceId(instance.getId()).finished().count()).isEqualTo(1);
        assertThat(grantsOn(instance)).isZero();
    }

    private ProcessInstance start(String key, String owner) {
        return engine.getRuntimeService().createProcessInstanceByKey(key).setVariable("owner", owner).execute();
    }

    private boolean ended(ProcessInstance instance) {
        return engine.getRuntimeService().createProcessInstanceQuery().processInstanceId(instance.getId()).count() == 0;
    }

    private long grantsOn(ProcessInstance instance) {
        return engine.getAuthorizationService().createAuthorizationQuery().resourceType(Resources.PROCESS_INSTANCE)
                .resourceId(instance.getId()).count();
    }

    /** Start, grant the owner (as runWaits does), then end at once or after a wait. */
    private static BpmnModelInstance model(String key, boolean waits) {
        var start = Bpmn.createExecutableProcess(key).startEvent()
                .camundaExecutionListenerClass(ExecutionListener.EVENTNAME_END, GrantOwner.class);
        return (waits ? start.receiveTask("Wait").endEvent() : start.endEvent()).done();
    }

    /** Grants the instance to the owner named in its variables, if any. */
    public static class GrantOwner implements ExecutionListener {
        @Override
        public void notify(DelegateExecution execution) {
            if (execution.getVariable("owner") instanceof String owner) {
                var authorizations = execution.getProcessEngineServices().getAuthorizationService();
                Authorization grant = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
                grant.setUserId(owner);
                grant.setResource(Resources.PROCESS_INSTANCE);
                grant.setResourceId(execution.getProcessInstanceId());
                grant.addPermission(Permissions.READ);
                authorizations.saveAuthorization(grant);
            }
        }
    }
}
