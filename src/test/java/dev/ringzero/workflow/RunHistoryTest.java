package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.junit.jupiter.api.Test;

/**
 * An agent run's activity instance events are not built at all (building one reads the run's
 * history instance for its removal time); runs keep their instance in history (CockpitVisibilityTest)
 * and gates their activities (RoverGateTest).
 */
class RunHistoryTest {

    private final RunHistory.RunAwareProducer producer = new RunHistory.RunAwareProducer();

    @Test
    void anAgentRunsActivitiesMakeNoHistoryEvent() {
        DelegateExecution run = mock(DelegateExecution.class);
        when(run.getProcessDefinitionId()).thenReturn(ProcessIds.AGENT_RUN + ":7:0f3c");

        assertThat(producer.createActivityInstanceStartEvt(run)).isNull();
        assertThat(producer.createActivityInstanceUpdateEvt(run)).isNull();
        assertThat(producer.createActivityInstanceEndEvt(run)).isNull();
    }
}
