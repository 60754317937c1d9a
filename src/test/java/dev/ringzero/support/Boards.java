package dev.ringzero.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.ringzero.firmware.DeskBot;
import dev.ringzero.firmware.LinkConfig;
import dev.ringzero.firmware.Rover;
import dev.ringzero.firmware.SimulatedBoard;
import dev.ringzero.support.Api.Response;

/**
 * Pairs gadgets through the REST API and starts simulated boards (device-firmware-stubs) with
 * the credential the platform handed out, against the real broker. Closes what it started.
 */
public final class Boards implements AutoCloseable {

    private final List<SimulatedBoard> started = new ArrayList<>();

    /** Pairs a new gadget for {@code owner} and returns the credential the device would be given. */
    public static LinkConfig pair(Api owner, String prefix) {
        String id = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Response paired = owner.post("/api/v1/gadgets", "{\"id\":\"" + id + "\",\"name\":\"" + prefix + "\"}");
        if (paired.status() != 201) {
            throw new IllegalStateException("pairing failed: " + paired);
        }
        return new LinkConfig(paired.json().at("/mqtt/url").asText(), id, paired.json().at("/mqtt/password").asText());
    }

    /** A registered desk bot, online, for a freshly paired gadget of {@code owner}. */
    public DeskBot deskBot(Api owner) {
        return start(new DeskBot(pair(owner, "desk")));
    }

    public Rover rover(Api owner) {
        return start(new Rover(pair(owner, "rover")));
    }

    /** Connects a board without waiting for a registration reply (a broker with no platform behind it). */
    public <B extends SimulatedBoard> B connect(B board) {
        board.start();
        started.add(board);
        return board;
    }

    public <B extends SimulatedBoard> B start(B board) {
        connect(board);
        if (!board.awaitRegistered(Duration.ofSeconds(10))) {
            throw new IllegalStateException(board.gadgetId() + " did not register");
        }
        return board;
    }

    @Override
    public void close() {
        started.forEach(board -> {
            try {
                board.close();
            } catch (RuntimeException e) {
                // already gone (killed or unpaired)
            }
        });
    }
}
