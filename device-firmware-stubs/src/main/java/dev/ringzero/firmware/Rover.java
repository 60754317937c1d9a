package dev.ringzero.firmware;

import static dev.ringzero.firmware.CommandDef.command;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A two-wheeled rover (differential drive). The physical commands, so the local
 * safety rules live here and hold whatever the platform decides:
 * <ul>
 *   <li>a drive lasts at most 10 s; a longer request is refused, not clipped;</li>
 *   <li>motion stops on its own when its time is up;</li>
 *   <li>motion stops at once when the MQTT link is lost (no driving blind);</li>
 *   <li>{@code chassis.stop} always goes through, even while a drive is running;</li>
 *   <li>a new drive while moving is refused with {@code busy}: the board never
 *       silently replaces one motion with another.</li>
 * </ul>
 */
public class Rover extends SimulatedBoard {

    public static final long MAX_DRIVE_MS = 10_000;
    static final long DEFAULT_DRIVE_MS = 1_000;
    static final double MAX_SPEED = 100;
    static final double DEFAULT_DISTANCE_CM = 20;
    static final double MAX_DISTANCE_CM = 200;
    /** At move speed (50 %) the rover covers 20 cm/s, i.e. 50 ms per cm. */
    static final double MS_PER_CM = 50;
    static final double MOVE_SPEED = 50;
    private static final Set<String> DIRECTIONS = Set.of("forward", "backward", "left", "right");

    /**
     * One motion; endedAt null while moving.
     *
     * @param endReason completed | stopped | link_lost | closed
     */
    public record Motion(String invocationId, String command, double left, double right, Instant startedAt,
                         Instant endedAt, String endReason) {
    }

    /** The motion in progress; guarded by {@code motors}. */
    private static final class Drive {
        final String id;
        final String command;
        final double left;
        final double right;
        final Instant startedAt;
        final long startedNanos = System.nanoTime();
        final Map<String, Object> extra;
        final CompletableFuture<CommandOutcome> result = new CompletableFuture<>();
        ScheduledFuture<?> end;

        Drive(String id, String command, double left, double right, Instant startedAt, Map<String, Object> extra) {
            this.id = id;
            this.command = command;
            this.left = left;
            this.right = right;
            this.startedAt = startedAt;
            this.extra = extra;
        }

        long drivenMs() {
            return (System.nanoTime() - startedNanos) / 1_000_000;
        }
    }

    private final Object motors = new Object();
    private Drive drive;
    private final BoundedLog<Motion> motions = new BoundedLog<>(10_000);

    public Rover(LinkConfig config) {
        this(config, null);
    }

    public Rover(LinkConfig config, ScheduledExecutorService sharedScheduler) {
        super(config, sharedScheduler);
        defineCommand(command("chassis.drive", "Drive both wheels at the given speeds for a while; answers when "
                + "the drive ends. Refused with busy while another motion runs.")
                .required("left", "number", "Left wheel speed, percent of full speed, -100..100")
                .required("right", "number", "Right wheel speed, percent of full speed, -100..100")
                .optional("duration_ms", "number", "How long to drive, 1..10000 ms (default 1000)")
                .timeoutMs(MAX_DRIVE_MS + 5_000)
                .handler(this::drive));
        defineCommand(command("chassis.move", "Move a distance in one direction at half speed; answers when done.")
                .required("direction", "string", "forward, backward, left or right (left/right turn in place)")
                .optional("distance_cm", "number", "Distance the wheels travel, 1..200 cm (default 20)")
                .timeoutMs(MAX_DRIVE_MS + 5_000)
                .handler(this::move));
        defineCommand(command("chassis.stop", "Stop all motion now. Always accepted.")
                .timeoutMs(2_000)
                .handler(request -> done(stopMotion("stopped"))));
        defineCommand(command("chassis.status", "Whether the rover moves, and the wheel speeds.")
                .timeoutMs(2_000)
                .handler(request -> done(status())));
    }

    @Override
    protected String displayName() {
        return "Rover";
    }

    @Override
    protected Map<String, Object> capabilities() {
        Map<String, Object> caps = new LinkedHashMap<>();
        caps.put("speaker", false);
        caps.put("camera", false);
        caps.put("features", List.of("chassis"));
        return caps;
    }

    private CompletionStage<CommandOutcome> drive(InvokeRequest request) {
        double left = request.number("left", 0);
        double right = request.number("right", 0);
        if (Math.abs(left) > MAX_SPEED || Math.abs(right) > MAX_SPEED) {
            return invalid("left and right must be between -100 and 100");
        }
        double duration = request.number("duration_ms", DEFAULT_DRIVE_MS);
        if (duration <= 0 || duration > MAX_DRIVE_MS) {
            // refused rather than clipped: the caller asked for something this rover will not do
            return invalid("duration_ms must be between 1 and " + MAX_DRIVE_MS + " (got " + (long) duration + ")");
        }
        return startMotion(request, left, right, (long) duration, Map.of());
    }

    private CompletionStage<CommandOutcome> move(InvokeRequest request) {
        String direction = request.text("direction");
        if (!DIRECTIONS.contains(direction)) {
            return invalid("direction must be forward, backward, left or right");
        }
        double distance = request.number("distance_cm", DEFAULT_DISTANCE_CM);
        if (distance <= 0 || distance > MAX_DISTANCE_CM) {
            return invalid("distance_cm must be between 1 and " + (long) MAX_DISTANCE_CM);
        }
        double left = switch (direction) {
            case "forward", "right" -> MOVE_SPEED;
            default -> -MOVE_SPEED;
        };
        double right = switch (direction) {
            case "forward", "left" -> MOVE_SPEED;
            default -> -MOVE_SPEED;
        };
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("direction", direction);
        extra.put("distance_cm", distance);
        return startMotion(request, left, right, Math.round(distance * MS_PER_CM), extra);
    }

    private CompletionStage<CommandOutcome> startMotion(InvokeRequest request, double left, double right,
                                                        long durationMs, Map<String, Object> extra) {
        synchronized (motors) {
            if (drive != null) {
                return CompletableFuture.completedFuture(CommandOutcome.error(CommandOutcome.BUSY,
                        "already moving (" + drive.command + " " + drive.id + ")"));
            }
            if (!isConnected() && isStarted()) {
                // the same rule as on link loss: no motion without a link
                return CompletableFuture.completedFuture(CommandOutcome.error(CommandOutcome.UNAVAILABLE, "link is down"));
            }
            Drive d = new Drive(request.id(), request.command(), left, right, clock().instant(), extra);
            drive = d;
            d.end = scheduler.schedule(() -> endMotion(d, "completed"), durationMs, TimeUnit.MILLISECONDS);
            return d.result;
        }
    }

    /** Ends this drive if it is still the current one; completes its pending result. */
    private void endMotion(Drive d, String reason) {
        synchronized (motors) {
            if (drive != d) {
                return;
            }
            drive = null;
            if (d.end != null) {
                d.end.cancel(false);
            }
            motions.add(new Motion(d.id, d.command, d.left, d.right, d.startedAt, clock().instant(), reason));
        }
        long driven = d.drivenMs();
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("status", reason);
        payload.put("driven_ms", driven);
        payload.putAll(d.extra);
        switch (reason) {
            case "completed", "stopped" -> d.result.complete(CommandOutcome.ok(payload));
            default -> d.result.complete(CommandOutcome.error(CommandOutcome.UNAVAILABLE,
                    "motion stopped after " + driven + " ms: " + reason.replace('_', ' ')));
        }
    }

    private Map<String, Object> stopMotion(String reason) {
        Drive d;
        synchronized (motors) {
            d = drive;
        }
        if (d != null) {
            endMotion(d, reason);
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("status", "stopped");
        payload.put("was_moving", d != null);
        return payload;
    }

    private Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        synchronized (motors) {
            status.put("moving", drive != null);
            status.put("left", drive == null ? 0.0 : drive.left);
            status.put("right", drive == null ? 0.0 : drive.right);
        }
        return status;
    }

    /** The safety rule: no link, no motion. Called on Paho's thread, so only flips state. */
    @Override
    protected void onLinkLost(String reason) {
        stopMotion(reason);
    }

    /** True while a motion runs. */
    public boolean isMoving() {
        synchronized (motors) {
            return drive != null;
        }
    }

    /** Motions, oldest first; one still running has endedAt null. */
    public List<Motion> motionLog() {
        List<Motion> log = new ArrayList<>(motions.snapshot());
        synchronized (motors) {
            if (drive != null) {
                log.add(new Motion(drive.id, drive.command, drive.left, drive.right, drive.startedAt, null, null));
            }
        }
        return List.copyOf(log);
    }

    private static CompletionStage<CommandOutcome> invalid(String message) {
        return CompletableFuture.completedFuture(CommandOutcome.error(CommandOutcome.INVALID_PARAMS, message));
    }

    private static CompletionStage<CommandOutcome> done(Map<String, ?> payload) {
        return CompletableFuture.completedFuture(CommandOutcome.ok(payload));
    }
}
