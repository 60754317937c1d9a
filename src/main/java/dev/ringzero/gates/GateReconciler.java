package dev.ringzero.gates;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * After a restart, every gate left {@code executing} is settled from its executor's trace, unless
 * its process still carries it (a pending job or a wait the engine resumes by itself). A device
 * invocation that was sent but never answered is re-published with the same id — the firmware
 * answers from its stored result and never executes twice — and otherwise ends {@code failed}
 * with outcome {@code unknown} for a human; a ring-3 attempt is judged by its pre-send record.
 *
 * <p>In a cluster a node starts while the others work. An auto gate has no process to carry it:
 * the node executing it does, so a starting node reconciles only the auto gates it executed
 * itself (its name, {@code ringzero.mqtt.node-id}, as {@code workflow.JobLocksOfThisNode} frees
 * only its own job locks); another node's call still in flight is that node's to settle.
 */
@Component
public class GateReconciler {

    private static final Logger log = LoggerFactory.getLogger(GateReconciler.class);

    private final GateService gates;
    private final GateEngine process;

    GateReconciler(GateService gates, GateEngine process) {
        this.gates = gates;
        this.process = process;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        // off the start-up thread: a replay waits a few seconds for the device's stored answer
        Thread thread = new Thread(() -> {
            try {
                reconcile();
            } catch (RuntimeException e) {
                log.warn("gate reconciliation failed; it runs again at the next start: {}", e.toString());
            }
        }, "gate-reconciler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Settles every executing gate nothing else carries; returns the ids it looked at. */
    public List<String> reconcile() {
        List<String> reconciled = new ArrayList<>();
        for (Gate gate : gates.executing()) {
            if (process.carriesOn(gate)) {
                continue;
            }
            log.info("reconciling executing gate {} ({})", gate.id(), gate.intent());
            gates.reconcile(gate.id());
            reconciled.add(gate.id());
        }
        return reconciled;
    }
}
