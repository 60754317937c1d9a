package dev.ringzero.firmware;

import static dev.ringzero.firmware.Invocations.errorCode;
import static dev.ringzero.firmware.Invocations.invoke;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ringzero.firmware.ReceivedInvocation.Handling;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Invocations the board must refuse before any handler (or hardware) runs. No broker needed. */
class CommandValidationTest {

    private final DeskBot underTest = new DeskBot(new LinkConfig("tcp://127.0.0.1:1", "desk-v", "x"));

    @AfterEach
    void close() {
        underTest.close();
    }

    private String refusalCode(InvokeRequest request) {
        Handling handling = underTest.handle(request);
        assertEquals(Handling.REFUSED, handling);
        return errorCode(underTest.storedResult(request.id()).orElseThrow());
    }

    @Test
    void missingRequiredParameterIsInvalidParams() {
        assertEquals("invalid_params", refusalCode(invoke("speaker.say", "{}")));
    }

    @Test
    void nullRequiredParameterIsInvalidParams() {
        assertEquals("invalid_params", refusalCode(invoke("speaker.say", "{\"text\":null}")));
    }

    @Test
    void requiredParameterOfWrongJsonTypeIsInvalidParams() {
        assertEquals("invalid_params", refusalCode(invoke("display.show_text", "{\"text\":42}")));
    }

    @Test
    void optionalParameterOfWrongJsonTypeIsInvalidParams() {
        assertEquals("invalid_params",
                refusalCode(invoke("speaker.play_url", "{\"url\":\"https://x/y.mp3\",\"duration_ms\":\"long\"}")));
    }

    @Test
    void paramsThatAreNotAnObjectAreInvalidParams() {
        assertEquals("invalid_params", refusalCode(invoke("display.show_text", "[\"hello\"]")));
    }

    @Test
    void unknownCommandIsUnsupported() {
        assertEquals("unsupported", refusalCode(invoke("chassis.drive", "{\"left\":1,\"right\":1}")));
    }

    @Test
    void invocationWithoutCommandIsUnsupported() {
        assertEquals("unsupported", refusalCode(invoke(null, "{}")));
    }

    @Test
    void undeclaredExtraParametersAreIgnored() {
        InvokeRequest request = invoke("display.show_text", "{\"text\":\"hi\",\"font\":\"big\"}");

        assertEquals(Handling.EXECUTED, underTest.handle(request));
        assertEquals("hi", underTest.screenText());
    }

    @Test
    void invocationPastItsDeadlineIsExpiredAndNotExecuted() {
        underTest.setClock(Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC));
        InvokeRequest late = new InvokeRequest("late-1", "display.show_text",
                invoke("display.show_text", "{\"text\":\"too late\"}").params(), 5_000, 999_999L);

        assertEquals("expired", refusalCode(late));
        assertEquals("", underTest.screenText());
    }

    @Test
    void invocationBeforeItsDeadlineRuns() {
        underTest.setClock(Clock.fixed(Instant.ofEpochMilli(1_000_000), ZoneOffset.UTC));
        InvokeRequest inTime = new InvokeRequest("ok-1", "display.show_text",
                invoke("display.show_text", "{\"text\":\"in time\"}").params(), 5_000, 1_000_000L);

        assertEquals(Handling.EXECUTED, underTest.handle(inTime));
        assertEquals("in time", underTest.screenText());
    }

    @Test
    void switchedOffSpeakerAnswersSpeakerOff() {
        underTest.setSpeakerOn(false);
        InvokeRequest say = invoke("speaker.say", "{\"text\":\"hello\"}");

        underTest.handle(say);

        assertEquals("speaker_off", errorCode(underTest.storedResult(say.id()).orElseThrow()));
    }

    @Test
    void injectedFaultAnswersItsCodeWithoutRunningTheHandler() {
        underTest.injectFault("display.show_text", "unavailable", "screen cable loose");

        assertEquals("unavailable", refusalCode(invoke("display.show_text", "{\"text\":\"hi\"}")));
        assertEquals("", underTest.screenText());
    }

    @Test
    void handlerThatThrowsAnswersHandlerFailed() {
        CommandDef broken = CommandDef.command("broken.cmd", "always throws").handler(request -> {
            throw new IllegalStateException("boom");
        });
        CommandDispatcher dispatcher = new CommandDispatcher(new ResultStore(10), Clock.systemUTC());
        dispatcher.define(broken);
        CommandOutcome[] answered = new CommandOutcome[1];

        Handling handling = dispatcher.dispatch(invoke("broken.cmd", "{}"), outcome -> answered[0] = outcome);

        assertEquals(Handling.EXECUTED, handling);
        assertEquals("handler_failed", errorCode(answered[0]));
    }

    @Test
    void silentBoardLogsButNeitherExecutesNorStores() {
        underTest.setSilent(true);
        InvokeRequest request = invoke("display.show_text", "{\"text\":\"hi\"}");

        assertEquals(Handling.SILENCED, underTest.handle(request));

        assertEquals("", underTest.screenText());
        assertTrue(underTest.storedResult(request.id()).isEmpty());
        assertTrue(underTest.awaitInvocations(1, Duration.ZERO));
    }
}
