package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel's answer. Sealed so every caller must handle every outcome: nothing is dispatched on a
 * verdict the caller did not expect.
 */
public sealed interface Verdict {

    /** The one allow; it carries nothing, so one instance serves. */
    Allow ALLOW = new Allow();

    /** {@code allow | deny | gate | over_budget}, for records and APIs. */
    String wire();

    /** Whether the action may go ahead now. */
    default boolean allowed() {
        return this instanceof Allow;
    }

    /** Go ahead now. */
    record Allow() implements Verdict {

        @Override
        public String wire() {
            return "allow";
        }
    }

    /**
     * Refused, with a stable reason code for run and action records. {@code detail} is for people and
     * never names another account's resources.
     */
    record Deny(DenyReason reason, String detail) implements Verdict {

        public Deny {
            Objects.requireNonNull(reason, "reason");
            detail = detail == null ? "" : detail;
        }

        @Override
        public String wire() {
            return "deny";
        }
    }

    /**
     * A human must approve first: the caller files a gate and goes on; it never blocks on the human.
     * {@code ruleId} is the trust rule that asked for the gate, or null when the intent's default did.
     */
    record Gate(String ruleId) implements Verdict {

        public Optional<String> rule() {
            return Optional.ofNullable(ruleId);
        }

        @Override
        public String wire() {
            return "gate";
        }
    }

    /**
     * A budget ({@link Budget}'s field name) is exhausted. {@code nextEligibleAt} is the earliest moment
     * it may pass again; null for per-run ceilings, which no amount of waiting restores within the run.
     */
    record OverBudget(String budget, Instant nextEligibleAt) implements Verdict {

        public OverBudget {
            Require.text(budget, "budget");
        }

        public Optional<Instant> nextEligible() {
            return Optional.ofNullable(nextEligibleAt);
        }

        @Override
        public String wire() {
            return "over_budget";
        }
    }
}
