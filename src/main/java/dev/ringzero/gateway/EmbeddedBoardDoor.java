package dev.ringzero.gateway;

import org.springframework.context.SmartLifecycle;

/**
 * Hands the boards' events and answers, on the embedded shape, to the gateway once the platform
 * consumes its inbound connections (their adapters start in an earlier phase), and takes the
 * boards away first at a stop, so that nothing new is taken while the platform drains. What a
 * board sent meanwhile waits, unacknowledged, with the board.
 */
class EmbeddedBoardDoor implements SmartLifecycle {

    /** After the message-driven adapters (Spring Integration's Integer.MAX_VALUE / 2), before Tomcat. */
    static final int PHASE = Integer.MAX_VALUE / 2 + 1000;

    private final EmbeddedBroker broker;
    private final LinkGateway gateway;
    private volatile boolean running;

    EmbeddedBoardDoor(EmbeddedBroker broker, LinkGateway gateway) {
        this.broker = broker;
        this.gateway = gateway;
    }

    @Override
    public void start() {
        broker.deliverBoardMessagesTo(gateway::accept);
        running = true;
    }

    @Override
    public void stop() {
        broker.closeToBoards();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
