package dev.ringzero.gates;

import dev.ringzero.kernel.DenyReason;
import org.springframework.stereotype.Component;

/**
 * A run's device command that filed no gate, on the record: refused (by the kernel, or by the mover
 * lease at dispatch) or run without a human by the trust ladder. Audited and journaled; the run
 * records it too.
 */
@Component
class RunActionRecords {

    private final Audit audit;
    private final Journal journal;
    private final LogRows logs;

    RunActionRecords(Audit audit, Journal journal, LogRows logs) {
        this.audit = audit;
        this.journal = journal;
        this.logs = logs;
    }

    void refused(String ownerId, String agentId, String runId, String command, String reason) {
        // the kernel allowed these two; dispatch refused them: the mover lease, the registered parameters
        boolean lease = DenyReason.MOVER_BUSY.wire().equals(reason);
        boolean params = DenyReason.INVALID_PARAMS.wire().equals(reason);
        logs.append(audit.row(ownerId, agentId, runId, null, command, Audit.Disposition.REFUSED,
                        lease ? "system:mover-lease" : params ? "system:registered-params" : "kernel", null, reason),
                journal.row(agentId, ownerId, lease || params ? Journal.Actor.SYSTEM : Journal.Actor.KERNEL,
                        "action.refused", null, runId, "Refused " + command + " (" + reason + ")", null));
    }

    /** {@code ruleId} null: the intent's default let it through. */
    void autoExecuted(String ownerId, String agentId, String runId, String command, String ruleId, String outcome) {
        logs.append(audit.row(ownerId, agentId, runId, null, command, Audit.Disposition.AUTO_EXECUTED,
                        ruleId == null ? "default" : "trust-rule:" + ruleId, ruleId, outcome),
                journal.row(agentId, ownerId, Journal.Actor.KERNEL, "action.auto", null, runId,
                        command + " ran without asking (" + outcome + ")", null));
    }
}
