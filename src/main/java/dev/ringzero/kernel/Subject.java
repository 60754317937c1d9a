package dev.ringzero.kernel;

/**
 * Who is asking. Adapters build it from the authenticated connection or the run record, never from a
 * message body, so no payload can name its own subject. Sealed so that every decision handles every
 * kind of asker, and each kind carries the most precedence it may claim ({@link #ceiling()}): an agent
 * cannot make itself the person by asking for {@link Priority#INTERACTION}.
 */
public sealed interface Subject {

    /** The account whose resources this subject may touch; everything else is invisible to it. */
    String accountId();

    /** The highest priority this kind of subject may claim; a request's priority is capped at it. */
    Priority ceiling();

    /** The owner's own direct path: a direct command from the person or their personal agent. */
    record Owner(String accountId) implements Subject {

        public Owner {
            Require.text(accountId, "accountId");
        }

        @Override
        public Priority ceiling() {
            return Priority.INTERACTION;
        }
    }

    /**
     * One run of one revision of a gadget agent. The revision is what fences work queued under old
     * policy: once the agent is revised, this run's requests answer {@link DenyReason#REVISION_STALE}.
     */
    record AgentRun(String accountId, String agentId, int revision, String runId) implements Subject {

        public AgentRun {
            Require.text(accountId, "accountId");
            Require.text(agentId, "agentId");
            Require.text(runId, "runId");
        }

        @Override
        public Priority ceiling() {
            return Priority.EXPLICIT;
        }
    }

    /** The trusted side executing a gate the owner approved; that approval is its only authority. */
    record ApprovedGate(String accountId, String gateId) implements Subject {

        public ApprovedGate {
            Require.text(accountId, "accountId");
            Require.text(gateId, "gateId");
        }

        @Override
        public Priority ceiling() {
            return Priority.APPROVED_GATE;
        }
    }
}
