package dev.ringzero.gates;

import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Component;

/** Which executor performs an intent: the first that handles it. */
@Component
class IntentExecutors {

    private final List<IntentExecutor> executors;

    IntentExecutors(List<IntentExecutor> executors) {
        this.executors = List.copyOf(executors);
    }

    Optional<IntentExecutor> forIntent(String intent) {
        return executors.stream().filter(executor -> executor.handles(intent)).findFirst();
    }

    /** The executor of a gate already filed: it had one when it was frozen, so none now is a bug. */
    IntentExecutor of(Gate gate) {
        return forIntent(gate.intent())
                .orElseThrow(() -> new IllegalStateException("no executor for " + gate.intent()));
    }
}
