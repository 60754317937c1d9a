package dev.ringzero.firmware;

import static dev.ringzero.firmware.Invocations.errorCode;
import static dev.ringzero.firmware.Invocations.invoke;
import static dev.ringzero.firmware.Invocations.resultOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rover's local safety limits. No broker needed. */
class RoverTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final Rover underTest = new Rover(new LinkConfig("tcp://127.0.0.1:1", "rover-t", "x"));

    @AfterEach
    void close() {
        underTest.close();
    }

    private Map<String, Object> payload(String id) {
        return ((CommandOutcome.Done) resultOf(underTest, id, WAIT)).payload();
    }

    @Test
    void driveLongerThanTenSecondsIsInvalidParamsAndDoesNotMove() {
        underTest.handle(invoke("d-long", "chassis.drive", "{\"left\":50,\"right\":50,\"duration_ms\":10001}"));

        assertEquals("invalid_params", errorCode(resultOf(underTest, "d-long", WAIT)));
        assertFalse(underTest.isMoving());
        assertTrue(underTest.motionLog().isEmpty());
    }

    @Test
    void driveOfExactlyTenSecondsIsAccepted() {
        underTest.handle(invoke("d-max", "chassis.drive", "{\"left\":50,\"right\":50,\"duration_ms\":10000}"));

        assertTrue(underTest.isMoving());
    }

    @Test
    void wheelSpeedBeyondFullSpeedIsInvalidParams() {
        underTest.handle(invoke("d-fast", "chassis.drive", "{\"left\":150,\"right\":50}"));

        assertEquals("invalid_params", errorCode(resultOf(underTest, "d-fast", WAIT)));
    }

    @Test
    void driveAnswersCompletedWhenItsTimeIsUp() {
        underTest.handle(invoke("d-1", "chassis.drive", "{\"left\":30,\"right\":30,\"duration_ms\":100}"));

        Map<String, Object> payload = payload("d-1");

        assertEquals("completed", payload.get("status"));
        assertFalse(underTest.isMoving());
        assertEquals("completed", underTest.motionLog().get(0).endReason());
    }

    @Test
    void secondDriveWhileMovingIsBusy() {
        underTest.handle(invoke("d-a", "chassis.drive", "{\"left\":30,\"right\":30,\"duration_ms\":5000}"));

        underTest.handle(invoke("d-b", "chassis.drive", "{\"left\":30,\"right\":30,\"duration_ms\":5000}"));

        assertEquals("busy", errorCode(resultOf(underTest, "d-b", WAIT)));
    }

    @Test
    void stopGoesThroughWhileDrivingAndEndsTheDrive() {
        underTest.handle(invoke("d-s", "chassis.drive", "{\"left\":30,\"right\":30,\"duration_ms\":5000}"));

        underTest.handle(invoke("stop-1", "chassis.stop", "{}"));

        assertEquals(true, payload("stop-1").get("was_moving"));
        assertEquals("stopped", payload("d-s").get("status"));
        assertFalse(underTest.isMoving());
    }

    @Test
    void lostLinkStopsTheMotorsAtOnce() {
        underTest.handle(invoke("d-l", "chassis.drive", "{\"left\":30,\"right\":30,\"duration_ms\":5000}"));

        underTest.onLinkLost("link_lost");

        assertFalse(underTest.isMoving());
        assertEquals("unavailable", errorCode(resultOf(underTest, "d-l", WAIT)));
        assertEquals("link_lost", underTest.motionLog().get(0).endReason());
    }

    @Test
    void moveInAnUnknownDirectionIsInvalidParams() {
        underTest.handle(invoke("m-1", "chassis.move", "{\"direction\":\"up\"}"));

        assertEquals("invalid_params", errorCode(resultOf(underTest, "m-1", WAIT)));
    }

    @Test
    void statusReportsTheWheelsWhileMoving() {
        underTest.handle(invoke("d-st", "chassis.drive", "{\"left\":-20,\"right\":40,\"duration_ms\":5000}"));
        underTest.handle(invoke("st-1", "chassis.status", "{}"));

        Map<String, Object> status = payload("st-1");

        assertEquals(true, status.get("moving"));
        assertEquals(-20.0, status.get("left"));
        assertEquals(40.0, status.get("right"));
    }
}
