package dev.ringzero.kernel;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The port to past human dispositions of gates, which is what an {@link TrustLevel#EARNED} rule earns
 * from. Adapters read it from the audit table, never from the agent's journal (enforcement never reads
 * the journal).
 */
@FunctionalInterface
public interface TrustHistory {

    /** No history: earned rules stay at gate. */
    TrustHistory NONE = (ownerId, agentId, intent, ruleId, since) -> List.of();

    /**
     * The owner's decisions on gates of this agent and intent that this rule sent to the desk, decided
     * at or after {@code since}, in any order. Only human decisions count: expired or fenced gates are
     * not dispositions.
     */
    List<Disposition> recent(String ownerId, String agentId, String intent, String ruleId, Instant since);

    /**
     * One human decision: {@code approved} false is a denial; {@code executed} says the approved action
     * actually ran (an approval that failed to execute earns nothing).
     */
    record Disposition(Instant at, boolean approved, boolean executed) {

        public Disposition {
            Objects.requireNonNull(at, "at");
        }
    }
}
