package dev.ringzero.firmware;

import static dev.ringzero.firmware.Invocations.invoke;
import static dev.ringzero.firmware.Invocations.resultOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ringzero.firmware.ReceivedInvocation.Handling;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A repeated invocation id executes at most once. No broker needed. */
class IdempotencyTest {

    private final DeskBot desk = new DeskBot(new LinkConfig("tcp://127.0.0.1:1", "desk-i", "x"));
    private final Rover rover = new Rover(new LinkConfig("tcp://127.0.0.1:1", "rover-i", "x"));

    @AfterEach
    void close() {
        desk.close();
        rover.close();
    }

    @Test
    void repeatedIdIsAnsweredFromTheStoreAndRunsTheHandlerOnce() {
        desk.handle(invoke("inv-1", "display.show_text", "{\"text\":\"first\"}"));
        desk.handle(invoke("inv-1", "display.show_text", "{\"text\":\"second\"}"));

        List<Handling> handlings = desk.invocations().stream().map(ReceivedInvocation::handling).toList();
        assertEquals(List.of(Handling.EXECUTED, Handling.REPLAYED), handlings);
        assertEquals("first", desk.screenText());
    }

    @Test
    void repeatedRefusalIsAnsweredWithTheSameError() {
        desk.handle(invoke("inv-2", "speaker.say", "{}"));

        Handling again = desk.handle(invoke("inv-2", "speaker.say", "{\"text\":\"now valid\"}"));

        assertEquals(Handling.REPLAYED, again);
        assertEquals("invalid_params", Invocations.errorCode(desk.storedResult("inv-2").orElseThrow()));
    }

    @Test
    void repeatWhileTheFirstIsStillRunningDoesNotRunAgain() {
        rover.handle(invoke("drive-1", "chassis.drive", "{\"left\":50,\"right\":50,\"duration_ms\":300}"));

        Handling repeat = rover.handle(invoke("drive-1", "chassis.drive", "{\"left\":50,\"right\":50,\"duration_ms\":300}"));

        assertEquals(Handling.REPLAYED, repeat);
        CommandOutcome outcome = resultOf(rover, "drive-1", Duration.ofSeconds(10));
        assertEquals("completed", ((CommandOutcome.Done) outcome).payload().get("status"));
        assertEquals(1, rover.motionLog().size());
    }
}
