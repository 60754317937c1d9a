package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommandKindTest {

    @ParameterizedTest
    @CsvSource({
        "device.ota, PRIVILEGED", "device.discover, PRIVILEGED", "device.unpair, PRIVILEGED",
        "Device.Unpair, PRIVILEGED", "device.info, OTHER",
        "chassis.drive, MOVE", "arm.move, MOVE", "servo.set_angle, MOVE", "motor.spin, MOVE", "CHASSIS.turn, MOVE",
        "chassis.stop, STOP", "arm.stop, STOP", "servo.stop, STOP", "motor.stop, STOP", "speaker.stop, STOP",
        "chassis.status, OTHER", "Arm.Status, OTHER",
        "speaker.say, SOUND", "speaker.play_url, SOUND", "Speaker.Say, SOUND",
        "email.send, RING3", "webhook.post, RING3",
        "display.show_text, OTHER", "led.blink, OTHER", "chassisdrive, OTHER"})
    void commandsAreClassifiedByNameWhateverTheCase(String name, CommandKind expected) {
        assertThat(CommandKind.of(name)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"MOVE, GATE", "RING3, GATE", "PRIVILEGED, DENY", "STOP, AUTO", "SOUND, AUTO", "OTHER, AUTO"})
    void movingAndRing3DefaultToAGate(CommandKind underTest, TrustLevel expected) {
        assertThat(underTest.defaultTrust()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"MOVE, true", "STOP, false", "SOUND, false", "RING3, false", "OTHER, false", "PRIVILEGED, false"})
    void onlyMovingNeedsThePhysicalGrant(CommandKind underTest, boolean expected) {
        assertThat(underTest.needsPhysicalGrant()).isEqualTo(expected);
    }
}
