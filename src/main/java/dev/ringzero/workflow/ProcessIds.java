package dev.ringzero.workflow;

/** Process definition keys, message names and variable names shared by models and code. */
public final class ProcessIds {

    public static final String GATE = "gate";
    public static final String AGENT_RUN = "agent-run";
    public static final String AGENT_SCHEDULE = "agent-schedule";

    public static final String MESSAGE_AGENT_TURN = "agentTurn";
    public static final String MESSAGE_SPEAKER_TURN = "speakerTurn";
    /** agent-run's wait for an llm turn: a receive task with no message, woken by its execution. */
    public static final String AWAIT_MODEL_REPLY = "Task_AwaitModelReply";
    /** agent-run's wait for an awaited command's answer: a receive task, as {@link #AWAIT_MODEL_REPLY}. */
    public static final String AWAIT_LINK_RESULT = "Task_AwaitLinkResult";

    public static final String VAR_AGENT_ID = "agentId";
    public static final String VAR_REVISION = "revision";
    public static final String VAR_TRIGGER_KIND = "triggerKind";

    public static final String VAR_GATE_ID = "gateId";
    public static final String VAR_OWNER_ID = "ownerId";
    public static final String VAR_DECISION = "decision";
    public static final String VAR_NOTE = "note";

    private ProcessIds() {
    }
}
