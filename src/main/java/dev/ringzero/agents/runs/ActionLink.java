package dev.ringzero.agents.runs;

import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.Outcome;
import dev.ringzero.kernel.ActionRequest;

/** The dispatcher (ring 0's only way to a device) as a run uses it. */
interface ActionLink {

    /** Asks the kernel now and, if allowed, sends the action on the run's behalf. */
    Dispatcher.Dispatch send(ActionRequest request, String runId);

    /** An invocation whose wait is over: {@code unknown} if it is still unanswered, else its answer. */
    Outcome afterWait(String invocationId);

    static ActionLink of(Dispatcher dispatcher) {
        return new ActionLink() {
            @Override
            public Dispatcher.Dispatch send(ActionRequest request, String runId) {
                return dispatcher.send(request, "run", runId);
            }

            @Override
            public Outcome afterWait(String invocationId) {
                return dispatcher.expire(invocationId).orElseGet(() -> dispatcher.stored(invocationId));
            }
        };
    }
}
