package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Duration;
import java.util.UUID;

import dev.ringzero.support.Api;
import dev.ringzero.support.Api.Response;
import org.awaitility.Awaitility;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.junit.jupiter.api.Test;

/**
 * Who may connect as which client id, and which topics a device may use (CONTRACTS.md §1), the
 * same on both brokers: each broker's test implements this with its own {@link #brokerUrl()}.
 * Two owners hold gadgets {@code base} and {@code base-a}: under the older rule
 * ({@code {gadgetId}-<suffix>}) the owner of {@code base} could log in as {@code base-a} and
 * close the other owner's connection, since a broker keeps one session per client id.
 */
interface DeviceIdentityContract {

    /** MQTT 3.1.1 gives a broker's refusal of a publish no code; the device must learn of it by then. */
    Duration NOTICED_WITHIN = Duration.ofSeconds(5);

    /** The broker under test. */
    String brokerUrl();

    /** A new owner account on the platform. */
    Api newOwner(String prefix);

    /** Pairs {@code gadgetId} for {@code owner}; returns the password the device is given. */
    private static String pair(Api owner, String gadgetId) {
        Response paired = owner.post("/api/v1/gadgets", "{\"id\":\"" + gadgetId + "\",\"name\":\"takeover\"}");
        assertThat(paired.status()).as("pairing %s: %s", gadgetId, paired).isEqualTo(201);
        return paired.json().at("/mqtt/password").asText();
    }

    private static String freshId() {
        return "t" + UUID.randomUUID().toString().substring(0, 8);
    }

    private DeviceConnection connect(String clientId, String username, String password) throws MqttException {
        return DeviceConnection.open(brokerUrl(), clientId, username, password);
    }

    private void refused(String clientId, String username, String password) {
        assertThatExceptionOfType(MqttException.class).as("%s connecting as client id %s", username, clientId)
                .isThrownBy(() -> connect(clientId, username, password).close());
    }

    private static void stillConnected(DeviceConnection... victims) {
        Awaitility.await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> java.util.Arrays.stream(victims).allMatch(DeviceConnection::holds));
    }

    @Test
    default void theOwnerOfAGadgetCannotTakeOverTheSessionsOfAGadgetWhoseIdExtendsItsOwn() throws Exception {
        String base = freshId();
        String basePassword = pair(newOwner("alice"), base);
        String otherPassword = pair(newOwner("bob"), base + "-a");

        try (DeviceConnection other = connect(base + "-a", base + "-a", otherPassword);
                DeviceConnection othersTool = connect(base + "-a.x", base + "-a", otherPassword)) {
            refused(base + "-a", base, basePassword);
            refused(base + "-a.x", base, basePassword);

            stillConnected(other, othersTool);
        }
    }

    @Test
    default void aGadgetWhoseIdExtendsAnothersCannotTakeOverThatGadgetsSessions() throws Exception {
        String base = freshId();
        String basePassword = pair(newOwner("alice"), base);
        String otherPassword = pair(newOwner("bob"), base + "-a");

        try (DeviceConnection device = connect(base, base, basePassword);
                DeviceConnection tool = connect(base + ".1", base, basePassword)) {
            refused(base + ".1", base + "-a", otherPassword);
            refused(base, base + "-a", otherPassword);

            stillConnected(device, tool);
        }
    }

    @Test
    default void aDeviceConnectsAsItsGadgetIdAndADottedSecondConnectionButNotTheOlderHyphenatedForm()
            throws Exception {
        String id = freshId();
        String password = pair(newOwner("alice"), id);

        try (DeviceConnection device = connect(id, id, password);
                DeviceConnection tool = connect(id + ".dbg", id, password)) {
            refused(id + "-dbg", id, password);
            refused(id + ".", id, password);
            refused("x" + id, id, password);

            stillConnected(device, tool);
        }
    }

    @Test
    default void aDeviceMaySubscribeOnlyToWhatThePlatformSendsIt() throws Exception {
        String id = freshId();
        String password = pair(newOwner("alice"), id);

        try (DeviceConnection device = connect(id, id, password)) {
            for (String granted : DeviceRights.SUBSCRIBES) {
                assertThat(device.subscribe(Topics.of(id, granted))).as(granted).isEqualTo(1);
            }
            for (String refused : new String[] {"register", "status", "events", "results", "#", "+", "invoke/x"}) {
                assertThat(device.subscribe(Topics.of(id, refused))).as(refused).isEqualTo(0x80);
            }
        }
    }

    @Test
    default void aDeviceCannotHandItselfAnInvocationAndLearnsThatItsPublishWasRefused() throws Exception {
        String id = freshId();
        String password = pair(newOwner("alice"), id);

        try (DeviceConnection device = connect(id, id, password)) {
            assertThat(device.subscribe(Topics.of(id, Topics.INVOKE))).isEqualTo(1);

            IMqttDeliveryToken forged = device.publish(Topics.of(id, Topics.INVOKE),
                    "{\"method\":\"link.invoke\",\"id\":\"forged\",\"command\":\"speaker.say\",\"params\":{}}");

            // MQTT 3.1.1 §3.3.5: a broker that refuses a publish acknowledges it or closes the connection
            Awaitility.await().atMost(NOTICED_WITHIN).until(() -> forged.isComplete() || device.lost());
            Awaitility.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
                    .until(() -> device.received().isEmpty());
        }
    }

    @Test
    default void aDevicesPublishToItsOwnResultsIsAcknowledgedAndItStaysConnected() throws Exception {
        String id = freshId();
        String password = pair(newOwner("alice"), id);

        try (DeviceConnection device = connect(id, id, password)) {
            IMqttDeliveryToken result = device.publish(Topics.of(id, Topics.RESULTS),
                    "{\"method\":\"link.result\",\"id\":\"never-invoked\",\"ok\":true,\"payload\":{}}");

            result.waitForCompletion(NOTICED_WITHIN.toMillis());
            assertThat(result.getException()).isNull();
            stillConnected(device);
        }
    }
}
