package dev.ringzero.workflow;

import java.util.Date;
import java.util.Map;

import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentService.AgentChanged;
import dev.ringzero.agents.Schedules;
import dev.ringzero.agents.runs.AgentRuns;
import dev.ringzero.agents.runs.ScheduledRuns;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.JavaDelegate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * Keeps one {@code agent-schedule} instance per enabled agent with a schedule, and fences the
 * queued runs of an agent whose policy changed. Runs inside the transaction of the change, so
 * the change and its consequences commit together.
 */
@Configuration
class ScheduleKeeper {

    private final RuntimeService runtime;
    private final AgentService agents;
    private final AgentRuns runs;
    private final ProcessInstances instances;

    ScheduleKeeper(RuntimeService runtime, AgentService agents, AgentRuns runs, ProcessInstances instances) {
        this.runtime = runtime;
        this.instances = instances;
        this.agents = agents;
        this.runs = runs;
    }

    @EventListener
    public void agentChanged(AgentChanged changed) {
        if (changed.change() != AgentChanged.Change.ENABLED && changed.change() != AgentChanged.Change.CREATED) {
            for (String runId : runs.fenceQueued(changed.agentId(), "agent " + changed.change().name().toLowerCase())) {
                instances.cancel(ProcessIds.AGENT_RUN, runId, "fenced");
            }
        }
        instances.cancel(ProcessIds.AGENT_SCHEDULE, changed.agentId(), "agent " + changed.change());
        agents.find(changed.agentId())
                .filter(current -> current.agent().enabled() && Schedules.hasSchedule(current.spec()))
                .ifPresent(current -> runtime.startProcessInstanceByKey(ProcessIds.AGENT_SCHEDULE,
                        changed.agentId(), Map.of("agentId", changed.agentId())));
    }

    @Bean
    JavaDelegate scheduleNext(ScheduledRuns scheduled) {
        return execution -> {
            Date previous = (Date) execution.getVariable("nextFireAt");
            execution.setVariable("nextFireAt", scheduled.next((String) execution.getVariable("agentId"),
                    previous == null ? null : previous.toInstant()).map(Date::from).orElse(null));
        };
    }

    @Bean
    JavaDelegate scheduleFire(ScheduledRuns scheduled, RunLauncher launcher) {
        return execution -> scheduled.fire((String) execution.getVariable("agentId")).ifPresent(launcher::start);
    }

}
