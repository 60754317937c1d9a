package dev.ringzero.agents.definition;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlatformCatalogueTest {

    @Test
    void listsToolsAndIntentsWithDescriptions() {
        var catalogue = PlatformCatalogue.catalogue();

        assertThat(catalogue.tools()).extracting(PlatformCatalogue.Entry::name)
                .contains("calendar.today", "calendar.next_meeting", "state.get", "state.set", "journal.read");
        assertThat(catalogue.intents()).extracting(PlatformCatalogue.Entry::name)
                .containsExactly("email.send", "webhook.post");
        assertThat(catalogue.tools()).allSatisfy(entry -> assertThat(entry.description()).isNotBlank());
        assertThat(catalogue.intents()).allSatisfy(entry -> assertThat(entry.description()).isNotBlank());
    }

    @Test
    void looksUpByName() {
        assertThat(PlatformCatalogue.tool("state.set")).isPresent();
        assertThat(PlatformCatalogue.tool("email.send")).isEmpty();
        assertThat(PlatformCatalogue.isTool("shell.exec")).isFalse();
        assertThat(PlatformCatalogue.isIntegrationIntent("webhook.post")).isTrue();
        assertThat(PlatformCatalogue.isIntegrationIntent("calendar.next_meeting")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"chassis.drive", "arm.grip", "servo.set_angle", "motor.spin"})
    void commandsThatMoveArePhysical(String command) {
        assertThat(PlatformCatalogue.isPhysicalCommand(command)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"speaker.say", "display.show_text", "chassisx.drive", "led.motor_colour"})
    void otherCommandsAreNotPhysical(String command) {
        assertThat(PlatformCatalogue.isPhysicalCommand(command)).isFalse();
    }

    @Test
    void firmwareAndPairingCommandsArePrivileged() {
        assertThat(PlatformCatalogue.isPrivilegedCommand("device.ota")).isTrue();
        assertThat(PlatformCatalogue.isPrivilegedCommand("device.discover")).isTrue();
        assertThat(PlatformCatalogue.isPrivilegedCommand("device.unpair")).isTrue();
        assertThat(PlatformCatalogue.isPrivilegedCommand("device.status")).isFalse();
    }
}
