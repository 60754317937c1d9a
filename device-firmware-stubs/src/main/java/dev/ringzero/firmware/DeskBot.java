package dev.ringzero.firmware;

import static dev.ringzero.firmware.CommandDef.command;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A desk companion: round-ish 240x240 colour screen, speaker, motion sensor, a
 * push-to-talk button. What a maker would build from an ESP32-S3 board, an IMU and
 * a small amplifier.
 *
 * <p>The speaker answers {@code speaker.say} with {@code fetching} at once (accepted,
 * not completed) and emits {@code speaker_idle} when the utterance ends. It does not
 * queue or refuse overlapping utterances: arbitration is the platform's job, and
 * {@link #speakerLog()} shows whether two utterances overlapped.
 */
public class DeskBot extends SimulatedBoard {

    static final long FETCH_MS = 50;
    static final long MS_PER_CHARACTER = 60;
    static final long MIN_UTTERANCE_MS = 200;
    static final long MAX_UTTERANCE_MS = 5_000;
    static final long DEFAULT_CLIP_MS = 1_000;
    static final long MAX_CLIP_MS = 600_000;

    // synthetic bursts, one per 100 ms sample: 3 samples above 1.6 g, the peak decides the strength
    private static final double[] HARD_BURST = {1.9, 2.6, 2.2, 1.3};
    private static final double[] GENTLE_BURST = {1.7, 1.9, 1.75, 1.2};

    /** One playback as the speaker saw it; endedAt null while still playing. */
    public record SpeakerPlayback(String invocationId, String command, Instant startedAt, Instant endedAt) {

        /** True when both were audible at the same moment. */
        public boolean overlaps(SpeakerPlayback other) {
            Instant thisEnd = endedAt == null ? Instant.MAX : endedAt;
            Instant otherEnd = other.endedAt == null ? Instant.MAX : other.endedAt;
            return startedAt.isBefore(otherEnd) && other.startedAt.isBefore(thisEnd);
        }
    }

    /** An acceleration sample in g. */
    public record ImuSample(double x, double y, double z) {
        public double g() {
            return Math.sqrt(x * x + y * y + z * z);
        }
    }

    private enum Phase { FETCHING, PLAYING }

    /** Mutable state of one utterance; guarded by {@code speaker}. */
    private static final class Utterance {
        final String id;
        final String command;
        final long durationMs;
        Phase phase = Phase.FETCHING;
        Instant startedAt;
        ScheduledFuture<?> next;

        Utterance(String id, String command, long durationMs) {
            this.id = id;
            this.command = command;
            this.durationMs = durationMs;
        }
    }

    private final Object speaker = new Object();
    private final Map<String, Utterance> active = new LinkedHashMap<>();
    private final BoundedLog<SpeakerPlayback> finished = new BoundedLog<>(10_000);
    private volatile boolean speakerOn = true;
    private volatile String screenText = "";

    private final Object imu = new Object();
    private final ShakeDetector detector = new ShakeDetector();
    private ImuSample lastSample = new ImuSample(0, 0, 1);
    private volatile boolean ambientImu = true;
    private ScheduledFuture<?> sampler;
    private volatile String orientation = "face_up";

    public DeskBot(LinkConfig config) {
        this(config, null);
    }

    public DeskBot(LinkConfig config, ScheduledExecutorService sharedScheduler) {
        super(config, sharedScheduler);
        defineCommand(command("speaker.say", "Say a short text through the speaker. Answers 'fetching' at once; "
                + "emits speaker_idle when the utterance ends.")
                .required("text", "string", "What to say, plain text")
                .timeoutMs(30_000)
                .handler(this::say));
        defineCommand(command("speaker.play_url", "Play an audio clip from a URL. Answers 'fetching' at once; "
                + "emits speaker_idle when the clip ends.")
                .required("url", "string", "http(s) URL of an MP3 or WAV clip")
                .optional("duration_ms", "number", "Length of the clip in ms, if known (default 1000)")
                .timeoutMs(30_000)
                .handler(this::playUrl));
        defineCommand(command("speaker.stop", "Stop whatever the speaker is playing.")
                .timeoutMs(30_000)
                .handler(request -> done(stopSpeaker())));
        defineCommand(command("speaker.status", "What the speaker is doing: idle, fetching or playing.")
                .timeoutMs(30_000)
                .handler(request -> done(speakerStatus())));
        defineCommand(command("display.show_text", "Show text on the 240x240 screen until replaced.")
                .required("text", "string", "Text to show")
                .timeoutMs(5_000)
                .handler(this::showText));
        defineCommand(command("imu.read", "Read the accelerometer (x, y, z and magnitude, in g).")
                .timeoutMs(2_000)
                .handler(request -> done(imuReading())));
        defineCommand(command("device.health", "Uptime, free heap and Wi-Fi signal strength.")
                .timeoutMs(2_000)
                .handler(request -> done(health())));

        defineEvent("shaken", "The bot was shaken. data: peak_g (number), strength ('gentle' or 'hard')");
        defineEvent("picked_up", "The bot was lifted. data: orientation");
        defineEvent("put_down", "The bot was set down. data: orientation");
        defineEvent("speaker_idle", "An utterance or clip finished or was stopped. data: invocation (the invocation id)");
        defineEvent("ptt_started", "The push-to-talk button was pressed. data: {}");
        defineEvent("ptt_ended", "The push-to-talk button was released. data: {}");
    }

    @Override
    protected String displayName() {
        return "Desk bot";
    }

    @Override
    protected Map<String, Object> capabilities() {
        Map<String, Object> screen = new LinkedHashMap<>();
        screen.put("width", 240);
        screen.put("height", 240);
        screen.put("color", true);
        screen.put("round", false);
        screen.put("touch", false);
        Map<String, Object> caps = new LinkedHashMap<>();
        caps.put("speaker", true);
        caps.put("screen", screen);
        caps.put("camera", false);
        caps.put("features", List.of("motion_sensor"));
        return caps;
    }

    // ---------------------------------------------------------------- speaker

    private CompletionStage<CommandOutcome> say(InvokeRequest request) {
        String text = request.text("text");
        long duration = Math.max(MIN_UTTERANCE_MS, Math.min(MAX_UTTERANCE_MS, MS_PER_CHARACTER * text.length()));
        return startUtterance(request, duration);
    }

    private CompletionStage<CommandOutcome> playUrl(InvokeRequest request) {
        double duration = request.number("duration_ms", DEFAULT_CLIP_MS);
        if (duration <= 0 || duration > MAX_CLIP_MS) {
            return CompletableFuture.completedFuture(CommandOutcome.error(CommandOutcome.INVALID_PARAMS,
                    "duration_ms must be between 1 and " + MAX_CLIP_MS));
        }
        return startUtterance(request, (long) duration);
    }

    private CompletionStage<CommandOutcome> startUtterance(InvokeRequest request, long durationMs) {
        if (!speakerOn) {
            return CompletableFuture.completedFuture(CommandOutcome.error(CommandOutcome.SPEAKER_OFF,
                    "the speaker is switched off"));
        }
        Utterance u = new Utterance(request.id(), request.command(), durationMs);
        synchronized (speaker) {
            active.put(u.id, u);
            u.next = scheduler.schedule(() -> beginPlaying(u), FETCH_MS, TimeUnit.MILLISECONDS);
        }
        return done(Map.of("status", "fetching"));
    }

    private void beginPlaying(Utterance u) {
        synchronized (speaker) {
            if (active.get(u.id) != u) {
                return;
            }
            u.phase = Phase.PLAYING;
            u.startedAt = clock().instant();
            u.next = scheduler.schedule(() -> endUtterance(u), u.durationMs, TimeUnit.MILLISECONDS);
        }
    }

    private void endUtterance(Utterance u) {
        synchronized (speaker) {
            if (active.remove(u.id) != u) {
                return;
            }
            if (u.next != null) {
                u.next.cancel(false);
            }
            if (u.startedAt != null) {
                finished.add(new SpeakerPlayback(u.id, u.command, u.startedAt, clock().instant()));
            }
        }
        emitEvent("speaker_idle", Map.of("invocation", u.id));
    }

    private Map<String, Object> stopSpeaker() {
        List<Utterance> stopping;
        synchronized (speaker) {
            stopping = new ArrayList<>(active.values());
        }
        stopping.forEach(this::endUtterance);
        return Map.of("status", "stopped");
    }

    private Map<String, Object> speakerStatus() {
        Map<String, Object> status = new LinkedHashMap<>();
        synchronized (speaker) {
            boolean playing = active.values().stream().anyMatch(u -> u.phase == Phase.PLAYING);
            status.put("state", active.isEmpty() ? "idle" : playing ? "playing" : "fetching");
            // the most recently started utterance is the one a listener hears on top
            String current = null;
            for (Utterance u : active.values()) {
                current = u.id;
            }
            status.put("current", current);
        }
        return status;
    }

    /** Playbacks that reached the playing phase, oldest first; ones still playing have endedAt null. */
    public List<SpeakerPlayback> speakerLog() {
        List<SpeakerPlayback> log = new ArrayList<>(finished.snapshot());
        synchronized (speaker) {
            for (Utterance u : active.values()) {
                if (u.startedAt != null) {
                    log.add(new SpeakerPlayback(u.id, u.command, u.startedAt, null));
                }
            }
        }
        log.sort(Comparator.comparing(SpeakerPlayback::startedAt));
        return List.copyOf(log);
    }

    /** Off: speaker.say and speaker.play_url answer {@code speaker_off}. */
    public void setSpeakerOn(boolean on) {
        this.speakerOn = on;
    }

    // ---------------------------------------------------------------- screen, health

    private CompletionStage<CommandOutcome> showText(InvokeRequest request) {
        screenText = request.text("text");
        return done(Map.of("status", "shown"));
    }

    /** What the screen shows now. */
    public String screenText() {
        return screenText;
    }

    private Map<String, Object> health() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        Map<String, Object> health = new LinkedHashMap<>();
        health.put("uptime_ms", uptimeMillis());
        health.put("free_heap", 180_000 + random.nextInt(-4_000, 4_000));
        health.put("rssi", -58 + random.nextInt(-6, 7));
        return health;
    }

    // ---------------------------------------------------------------- motion sensor

    @Override
    protected void onStarted() {
        if (ambientImu) {
            synchronized (imu) {
                sampler = scheduler.scheduleAtFixedRate(this::sampleAmbient, ShakeDetector.SAMPLE_PERIOD_MS,
                        ShakeDetector.SAMPLE_PERIOD_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    protected void onStopped() {
        synchronized (imu) {
            if (sampler != null) {
                sampler.cancel(false);
            }
        }
        List<Utterance> silenced;
        synchronized (speaker) {
            silenced = new ArrayList<>(active.values());
            silenced.forEach(u -> {
                if (u.next != null) {
                    u.next.cancel(false);
                }
            });
        }
    }

    /**
     * Whether the accelerometer is sampled every 100 ms while the board runs (default
     * true). A large fleet turns it off: a board at rest never produces a shake.
     * Set before {@link #start()}.
     */
    public void setAmbientImu(boolean on) {
        this.ambientImu = on;
    }

    // a bot resting on a desk: gravity on z, a little sensor noise
    private void sampleAmbient() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        ImuSample s = new ImuSample(random.nextGaussian() * 0.01, random.nextGaussian() * 0.01,
                1 + random.nextGaussian() * 0.01);
        Optional<ShakeDetector.Shake> shake;
        synchronized (imu) {
            lastSample = s;
            shake = detector.onSample(clock().millis(), s.g());
        }
        shake.ifPresent(this::emitShaken);
    }

    /**
     * Shakes the bot: feeds a burst of samples 100 ms apart through the detector
     * (instantly; the samples carry their own timestamps).
     *
     * @param strength "hard" (peak 2.6 g) or "gentle" (peak 1.9 g)
     * @return the {@code shaken} event id, or null when the 8 s cooldown suppressed it
     */
    public String shake(String strength) {
        double[] burst = switch (strength == null ? "hard" : strength) {
            case "hard" -> HARD_BURST;
            case "gentle" -> GENTLE_BURST;
            default -> throw new IllegalArgumentException("strength is 'hard' or 'gentle': " + strength);
        };
        ShakeDetector.Shake found = null;
        synchronized (imu) {
            long t0 = Math.max(clock().millis(), detector.lastSampleAt());
            for (int i = 0; i < burst.length; i++) {
                // the burst mostly along x: the bot is shaken sideways
                double x = Math.sqrt(Math.max(0, burst[i] * burst[i] - 1));
                lastSample = new ImuSample(x, 0, 1);
                Optional<ShakeDetector.Shake> s = detector.onSample(t0 + i * ShakeDetector.SAMPLE_PERIOD_MS, burst[i]);
                if (s.isPresent()) {
                    found = s.get();
                }
            }
        }
        return found == null ? null : emitShaken(found);
    }

    private String emitShaken(ShakeDetector.Shake shake) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("peak_g", shake.peakG());
        data.put("strength", shake.strength());
        return emitEvent("shaken", data);
    }

    /** The SDK's 8 s; {@link Duration#ZERO} lets every burst through. */
    public void shakeCooldown(Duration cooldown) {
        detector.setCooldown(cooldown);
    }

    /** Forget the last shake: the next one is reported even within the cooldown. */
    public void resetShakeCooldown() {
        detector.resetCooldown();
    }

    private Map<String, Object> imuReading() {
        ImuSample s;
        synchronized (imu) {
            s = lastSample;
        }
        Map<String, Object> reading = new LinkedHashMap<>();
        reading.put("x", round3(s.x()));
        reading.put("y", round3(s.y()));
        reading.put("z", round3(s.z()));
        reading.put("g", round3(s.g()));
        return reading;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Lifts the bot; emits {@code picked_up {orientation}}. */
    public String pickUp() {
        return pickUp("face_up");
    }

    /** @param orientation e.g. face_up, face_down, upright, on_side */
    public String pickUp(String orientation) {
        this.orientation = orientation;
        return emitEvent("picked_up", Map.of("orientation", orientation));
    }

    /** Sets the bot down; emits {@code put_down {orientation}}. */
    public String putDown() {
        return putDown("face_up");
    }

    public String putDown(String orientation) {
        this.orientation = orientation;
        return emitEvent("put_down", Map.of("orientation", orientation));
    }

    public String orientation() {
        return orientation;
    }

    /** Push-to-talk pressed: emits {@code ptt_started {}}. */
    public String pushToTalkStart() {
        return emitEvent("ptt_started", Map.of());
    }

    /** Push-to-talk released: emits {@code ptt_ended {}}. */
    public String pushToTalkEnd() {
        return emitEvent("ptt_ended", Map.of());
    }

    private static CompletionStage<CommandOutcome> done(Map<String, ?> payload) {
        return CompletableFuture.completedFuture(CommandOutcome.ok(payload));
    }
}
