package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Executor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.policy.SpeakerFloor;
import dev.ringzero.router.EventAdmission;
import dev.ringzero.router.IncomingEvent;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.integration.mqtt.support.MqttHeaders;
import org.springframework.integration.support.MessageBuilder;

/**
 * {@code link.event}'s {@code uptime_ms}, the board's clock: taken only when it can be one, and
 * handed to admission with whether the broker may be delivering the message again.
 */
class LinkEventClockTest {

    private final ObjectMapper json = new ObjectMapper();
    private final GadgetStore gadgets = mock(GadgetStore.class);
    private final EventAdmission admission = mock(EventAdmission.class);
    private final LinkGateway gateway = new LinkGateway(gadgets, admission, mock(dev.ringzero.dispatch.AnswerLane.class),
            mock(LinkPublisher.class), mock(LinkRejections.class), json, Clock.systemUTC(), Optional.empty(),
            mock(SpeakerFloor.class), Runnable::run, Runnable::run,
            mock(org.springframework.scheduling.TaskScheduler.class));

    private Long uptime(String params) throws Exception {
        return LinkGateway.uptime(json.readTree(params).path("uptime_ms"));
    }

    @Test
    void aWholeNumberOfMillisecondsIsTheBoardsClock() throws Exception {
        assertThat(uptime("{\"uptime_ms\":123456}")).isEqualTo(123_456L);
        assertThat(uptime("{\"uptime_ms\":0}")).isZero();
        assertThat(uptime("{\"uptime_ms\":" + LinkGateway.MAX_UPTIME_MS + "}")).isEqualTo(LinkGateway.MAX_UPTIME_MS);
    }

    @Test
    void anythingElseIsNoClock() throws Exception {
        for (String params : new String[] {"{}", "{\"uptime_ms\":null}", "{\"uptime_ms\":\"123\"}",
                "{\"uptime_ms\":12.5}", "{\"uptime_ms\":-1}", "{\"uptime_ms\":" + (LinkGateway.MAX_UPTIME_MS + 1) + "}",
                "{\"uptime_ms\":123456789012345678901234567890}", "{\"uptime_ms\":{\"ms\":1}}"}) {
            JsonNode node = json.readTree(params);
            assertThat(LinkGateway.uptime(node.path("uptime_ms"))).as(params).isNull();
        }
    }

    @Test
    void anEventGoesToAdmissionWithItsBoardsClockAndWhetherItMayBeACopy() {
        assertThat(admitted("\"uptime_ms\":1234", false).sent()).isEqualTo(new IncomingEvent.BoardTime(1234, false));
        assertThat(admitted("\"uptime_ms\":1234", true).sent()).isEqualTo(new IncomingEvent.BoardTime(1234, true));
    }

    @Test
    void anEventWithoutAClockThatCouldBeOneIsAdmittedAllTheSame() {
        IncomingEvent event = admitted("\"uptime_ms\":\"soon\"", false);

        assertThat(event.deviceEventId()).isEqualTo("e-1");
        assertThat(event.sent()).isNull();
    }

    @Test
    void theBrokersDuplicateFlagSaysWhetherAMessageMayBeACopy() {
        assertThat(MqttConfig.redelivered(MessageBuilder.withPayload(new byte[0])
                .setHeader(MqttHeaders.DUPLICATE, true).build())).isTrue();
        assertThat(MqttConfig.redelivered(MessageBuilder.withPayload(new byte[0])
                .setHeader(MqttHeaders.DUPLICATE, false).build())).isFalse();
        assertThat(MqttConfig.redelivered(MessageBuilder.withPayload(new byte[0]).build())).isFalse();
    }

    /** What admission was handed for a {@code link.event} from a paired gadget with {@code clock} in its params. */
    private IncomingEvent admitted(String clock, boolean redelivered) {
        when(gadgets.pairing("g-1")).thenReturn(Optional.of(new GadgetStore.Pairing("g-1", "owner-1")));
        String payload = "{\"method\":\"link.event\",\"params\":{\"id\":\"e-1\",\"event\":\"shaken\",\"data\":{},"
                + clock + "}}";
        gateway.accept(Topics.ROOT + "g-1/" + Topics.EVENTS, payload.getBytes(StandardCharsets.UTF_8), redelivered,
                () -> { });
        ArgumentCaptor<IncomingEvent> event = ArgumentCaptor.forClass(IncomingEvent.class);
        verify(admission, org.mockito.Mockito.atLeastOnce()).admitSoon(event.capture(), any(Runnable.class),
                any(Runnable.class), any(Executor.class));
        return event.getValue();
    }
}
