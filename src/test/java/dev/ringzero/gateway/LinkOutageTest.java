package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.gadgets.GadgetStore;
import dev.ringzero.policy.SpeakerFloor;
import dev.ringzero.router.EventAdmission;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.scheduling.TaskScheduler;

/**
 * The database away while a board's message arrives: the message is neither refused nor thrown to
 * the link's connection (which Paho would drop), but waits, unacknowledged, and is handled again.
 */
class LinkOutageTest {

    private final GadgetStore gadgets = mock(GadgetStore.class);
    private final EventAdmission admission = mock(EventAdmission.class);
    private final LinkRejections rejections = mock(LinkRejections.class);
    private final TaskScheduler scheduler = mock(TaskScheduler.class);
    private final LinkGateway underTest = new LinkGateway(gadgets, admission, mock(dev.ringzero.dispatch.AnswerLane.class),
            mock(LinkPublisher.class), rejections, new ObjectMapper(), Clock.systemUTC(), Optional.empty(),
            mock(SpeakerFloor.class), Runnable::run, Runnable::run, scheduler);

    @Test
    void anEventWhoseGadgetCannotBeReadIsNeitherThrownNorAcknowledgedButHandledAgainLater() {
        when(gadgets.pairing("g-1")).thenThrow(new DataAccessResourceFailureException("terminating connection"))
                .thenReturn(Optional.of(new GadgetStore.Pairing("g-1", "owner-1")));
        AtomicInteger acknowledged = new AtomicInteger();
        byte[] event = "{\"method\":\"link.event\",\"params\":{\"id\":\"e-1\",\"event\":\"shaken\",\"data\":{}}}"
                .getBytes(StandardCharsets.UTF_8);

        underTest.accept(Topics.ROOT + "g-1/" + Topics.EVENTS, event, false, acknowledged::incrementAndGet);

        assertThat(acknowledged).as("not acknowledged while the database is away").hasValue(0);
        verify(admission, never()).admitSoon(any(), any(Runnable.class), any(Runnable.class), any(Executor.class));
        verify(rejections, never()).reject(any(), any(), any());
        ArgumentCaptor<Runnable> again = ArgumentCaptor.forClass(Runnable.class);
        verify(scheduler).schedule(again.capture(), any(Instant.class));

        again.getValue().run();

        verify(admission).admitSoon(any(), any(Runnable.class), any(Runnable.class), any(Executor.class));
    }
}
