package dev.ringzero.agents.llm;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.agents.AgentService;
import dev.ringzero.agents.AgentStore;
import dev.ringzero.agents.definition.DefinitionLimits;
import dev.ringzero.agents.runs.DevicesFirst;
import dev.ringzero.agents.runs.RunStore;
import dev.ringzero.gadgets.RegisteredCommands;
import dev.ringzero.gates.Envelopes;
import dev.ringzero.gates.GateService;
import dev.ringzero.gates.Journal;
import dev.ringzero.kernel.PolicyKernel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The llm runtime: the model client from {@code ringzero.llm.*}, the worker threads model turns
 * wait on, and the session steps. Built whether or not a model is configured (without one, llm
 * runs end {@code llm_unconfigured} at admission and nothing here is called).
 */
@Configuration
class LlmConfig {

    /** Where the model is; a test may put a scripted one in its place. */
    @Bean
    Model llmModel(LlmSettings settings) {
        if (!settings.configured()) {
            return (call, onReplyHead) -> new ModelReply.Failed("llm_unconfigured", "no model is configured");
        }
        return new OpenAiCompatibleModel(settings);
    }

    /**
     * The threads model turns wait on: at most {@code workers} at once, the rest queued; they hold
     * no engine thread and no database connection while the model thinks.
     */
    @Bean(destroyMethod = "shutdownNow")
    ThreadPoolExecutor llmWorkers(LlmSettings settings) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(settings.workers(), settings.workers(), 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), work -> {
                    Thread thread = new Thread(work, "llm-turn-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @Bean
    LocalTools llmLocalTools(AgentStore agents, Journal journal, dev.ringzero.ecosystem.calendar.CalendarFeeds calendars,
            DefinitionLimits limits, ObjectMapper json, Clock clock) {
        return new LocalTools(agents, journal, new OwnerCalendar(calendars, json), limits, json, clock);
    }

    @Bean
    ModelTurns modelTurns(Model model, LlmSettings settings, SessionStore store, RunStore runs, AgentService agents,
            AgentStore agentStore, RegisteredCommands registered, PolicyKernel kernel, Envelopes envelopes,
            GateService gates, LocalTools tools, ObjectProvider<SessionWake> wake, DevicesFirst devicesFirst,
            TransactionTemplate transactions, ExecutorService llmWorkers, ObjectMapper json, Clock clock) {
        SessionWake lazyWake = (runId, turn, waitExecution) -> wake.getObject().turnDone(runId, turn, waitExecution);
        return new ModelTurns(model, settings, store, runs, agents, agentStore, registered, kernel, envelopes, gates,
                gates, tools, lazyWake, devicesFirst, transactions, llmWorkers, json,
                clock);
    }

    @Bean
    LlmSessions llmSessions(LlmSettings settings, SessionStore store, RunStore runs, AgentService agents,
            ModelTurns turns, ObjectMapper json, Clock clock) {
        return new LlmSessions(settings, store, runs, agents, turns, json, clock);
    }

    @Bean
    Drafts drafts(Model model, LlmSettings settings, dev.ringzero.agents.definition.DefinitionValidator validator,
            dev.ringzero.gadgets.GadgetRegistry gadgets, dev.ringzero.agents.runs.DryRun dryRun, ObjectMapper json) {
        return new Drafts(model, settings, validator, gadgets, dryRun, json);
    }

    /** On a node of a cluster: turns a dead node left behind are resumed by one of the others. */
    @org.springframework.scheduling.annotation.Scheduled(fixedDelayString = "${ringzero.llm.orphan-sweep:PT10S}",
            initialDelayString = "${ringzero.llm.orphan-sweep:PT10S}")
    void resumeOrphanedTurns() {
        if (clustered) {
            sessions.getObject().resumeOrphaned();
        }
    }

    private final boolean clustered;
    private final ObjectProvider<LlmSessions> sessions;

    LlmConfig(@org.springframework.beans.factory.annotation.Value("${ringzero.cluster.enabled:false}") boolean clustered,
            ObjectProvider<LlmSessions> sessions) {
        this.clustered = clustered;
        this.sessions = sessions;
    }

    /** Turns in flight when the node stopped are played again (or finished) once it is up. */
    @EventListener(ApplicationReadyEvent.class)
    void resumeTurns(ApplicationReadyEvent ready) {
        ready.getApplicationContext().getBean(LlmSessions.class).resumeUnfinished();
    }
}
