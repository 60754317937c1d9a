package dev.ringzero.gates;

import java.time.Duration;

/** What an {@link IntentExecutor} reports; sealed so the desk handles every case. */
public sealed interface Execution {

    /** It ran; {@code result} is JSON. The gate ends {@code executed}. */
    record Done(String result) implements Execution {
    }

    /**
     * It did not run, or its outcome is uncertain ({@code result} says which: an uncertain outcome
     * carries {@code "outcome":"unknown"} and {@code "needsHuman":true}). The gate ends {@code failed};
     * nothing is retried automatically.
     */
    record Failed(String result) implements Execution {
    }

    /** Sent to a device; its answer is awaited until {@code answerWithin} has passed. */
    record InFlight(Duration answerWithin) implements Execution {
    }

    /** No trace of any attempt: nothing ever left the platform, so executing now is not a repeat. */
    record NotStarted() implements Execution {
    }
}
