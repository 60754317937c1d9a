package dev.ringzero.workflow;

import java.util.ArrayList;
import java.util.List;

import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.history.event.HistoricActivityInstanceEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoricVariableUpdateEventEntity;
import org.camunda.bpm.engine.impl.history.event.HistoryEvent;
import org.camunda.bpm.engine.impl.history.handler.DbHistoryEventHandler;
import org.camunda.bpm.engine.impl.history.handler.HistoryEventHandler;
import org.camunda.bpm.engine.impl.history.producer.CacheAwareHistoryEventProducer;
import org.springframework.stereotype.Component;

/**
 * What the engine's history keeps of an {@code agent-run}: the instance (business key = run id,
 * start, end, state) and its incidents, but not its activity instances or variables. A run walks
 * a dozen activities in milliseconds, and writing each of them twice was most of what an event
 * cost the database; the run's own record ({@code rz_run}, {@code rz_run_action}: every action's
 * verdict, outcome and timings) already holds what an analyst reads. Gates and schedules keep
 * their full {@code audit} history (few, slow, and worth every row). docs/benchmarks.md has the
 * figures. An agent run's activity instance events are not even built ({@link RunAwareProducer});
 * its variables' events are built and dropped (a run writes one or two).
 */
@Component
class RunHistory extends AbstractProcessEnginePlugin {

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        if (configuration.getHistoryEventProducer() == null) {
            configuration.setHistoryEventProducer(new RunAwareProducer());
        }
        configuration.setEnableDefaultDbHistoryEventHandler(false);
        List<HistoryEventHandler> handlers = new ArrayList<>();
        if (configuration.getCustomHistoryEventHandlers() != null) {
            handlers.addAll(configuration.getCustomHistoryEventHandlers());
        }
        handlers.add(new RunAwareDbHistory());
        configuration.setCustomHistoryEventHandlers(handlers); // others (plugins) may still add theirs
    }

    /** True for the history events of an agent run that are not kept. */
    static boolean dropped(HistoryEvent event) {
        if (!(event instanceof HistoricActivityInstanceEventEntity || event instanceof HistoricVariableUpdateEventEntity)) {
            return false;
        }
        String key = event.getProcessDefinitionKey();
        if (key != null) {
            return ProcessIds.AGENT_RUN.equals(key);
        }
        return ofAgentRun(event.getProcessDefinitionId());
    }

    /** True for a process definition id of {@code agent-run} (ids are key:version:uuid). */
    private static boolean ofAgentRun(String definitionId) {
        return definitionId != null && definitionId.startsWith(ProcessIds.AGENT_RUN + ":");
    }

    /**
     * The engine's own producer, which builds no activity instance event of an agent run: each
     * would be dropped by the handler, and building one reads the run's history instance for its
     * removal time (a select per activity of a run that waits, where its transaction began).
     */
    static final class RunAwareProducer extends CacheAwareHistoryEventProducer {

        private static boolean ofRun(DelegateExecution execution) {
            return ofAgentRun(execution.getProcessDefinitionId());
        }

        @Override
        public HistoryEvent createActivityInstanceStartEvt(DelegateExecution execution) {
            return ofRun(execution) ? null : super.createActivityInstanceStartEvt(execution);
        }

        @Override
        public HistoryEvent createActivityInstanceUpdateEvt(DelegateExecution execution) {
            return ofRun(execution) ? null : super.createActivityInstanceUpdateEvt(execution);
        }

        @Override
        public HistoryEvent createActivityInstanceEndEvt(DelegateExecution execution) {
            return ofRun(execution) ? null : super.createActivityInstanceEndEvt(execution);
        }
    }

    /** The engine's own database handler, minus what {@link #dropped} leaves out. */
    static final class RunAwareDbHistory extends DbHistoryEventHandler {

        @Override
        public void handleEvent(HistoryEvent event) {
            if (!dropped(event)) {
                super.handleEvent(event);
            }
        }
    }
}
