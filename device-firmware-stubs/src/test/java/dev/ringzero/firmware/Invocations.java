package dev.ringzero.firmware;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/** Test helpers: build invocations and wait for stored results without a broker. */
final class Invocations {

    private Invocations() {
    }

    static InvokeRequest invoke(String command, String paramsJson) {
        return invoke(UUID.randomUUID().toString(), command, paramsJson);
    }

    static InvokeRequest invoke(String id, String command, String paramsJson) {
        try {
            return new InvokeRequest(id, command, FirmwareJson.MAPPER.readTree(paramsJson), 30_000, null);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The board's stored result for the id, waiting for commands that answer later (drives). */
    static CommandOutcome resultOf(SimulatedBoard board, String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<CommandOutcome> stored = board.storedResult(id);
            if (stored.isPresent()) {
                return stored.get();
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("no result for " + id + " within " + timeout);
    }

    static String errorCode(CommandOutcome outcome) {
        if (outcome instanceof CommandOutcome.Failed failed) {
            return failed.code();
        }
        throw new AssertionError("expected an error, got " + outcome);
    }
}
