package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.processEngine;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.repositoryService;
import static org.camunda.bpm.engine.test.assertions.bpmn.BpmnAwareTests.runtimeService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.test.junit5.ProcessEngineExtension;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A batch shares one engine command; one bad item never takes the others down. */
@ExtendWith(ProcessEngineExtension.class)
class EngineBatchTest {

    private EngineBatch batch;

    @BeforeEach
    void deploy() {
        repositoryService().createDeployment().addModelInstance("wait.bpmn", Bpmn.createExecutableProcess("wait")
                .camundaHistoryTimeToLive(1).startEvent().receiveTask("Wait").message("go").endEvent().done())
                .deploy();
        // outside Spring there is no transaction to keep reads for: the reads are a no-op here
        batch = new EngineBatch((ProcessEngineConfigurationImpl) processEngine().getProcessEngineConfiguration(),
                new dev.ringzero.TransactionReads(null));
    }

    @Test
    void itemsOfABatchShareOneCommandAndAllCommitTogether() {
        Map<String, Object> contexts = new ConcurrentHashMap<>();
        List<String> failed = new ArrayList<>();

        batch.run(List.of("a1", "b1", "c1"), key -> {
            contexts.put(key, Context.getCommandContext());
            runtimeService().startProcessInstanceByKey("wait", key);
        }, (key, e) -> failed.add(key));

        assertThat(contexts.values()).hasSize(3).as("one command context").containsOnly(contexts.get("a1"));
        assertThat(runtimeService().createProcessInstanceQuery().processDefinitionKey("wait").list())
                .extracting(instance -> instance.getBusinessKey()).contains("a1", "b1", "c1");
        assertThat(failed).isEmpty();
    }

    @Test
    void aFailingItemRollsItsBatchBackAndTheOthersAreDoneOneByOne() {
        List<String> failed = new ArrayList<>();
        List<Object> contexts = new ArrayList<>();

        batch.run(List.of("a2", "bad", "c2"), key -> {
            contexts.add(Context.getCommandContext());
            runtimeService().startProcessInstanceByKey("wait", key);
            if (key.equals("bad")) {
                throw new IllegalStateException("this one cannot start");
            }
        }, (key, e) -> failed.add(key + ": " + e.getMessage()));

        assertThat(failed).containsExactly("bad: this one cannot start");
        assertThat(runtimeService().createProcessInstanceQuery().processDefinitionKey("wait").list())
                .extracting(instance -> instance.getBusinessKey()).filteredOn(key -> key.endsWith("2") || key.equals("bad"))
                .as("the rolled-back batch left nothing behind").containsExactlyInAnyOrder("a2", "c2");
        assertThat(contexts).as("the batch's two tries, then one command per item").hasSize(2 + 3);
    }
}
