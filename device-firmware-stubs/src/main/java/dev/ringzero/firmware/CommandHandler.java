package dev.ringzero.firmware;

import java.util.concurrent.CompletionStage;

/**
 * Runs one validated command. Returns at once: a command that takes time (a drive)
 * completes the stage later, so no thread waits on hardware.
 */
@FunctionalInterface
public interface CommandHandler {

    CompletionStage<CommandOutcome> handle(InvokeRequest request) throws Exception;
}
