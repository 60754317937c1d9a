package dev.ringzero.firmware;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many desk bots in one JVM for load tests. They share one scheduler (handlers,
 * speaker timers, pings) and keep short histories; only Paho's network threads
 * are per board. The event load is open loop: events leave on schedule whether or
 * not earlier ones were handled, as real gadgets do.
 */
final class Fleet {

    private static final int FLEET_HISTORY = 100;
    private static final long TICK_MS = 10;
    private static final long REPORT_S = 10;
    private static final int STARTERS = 32;

    private Fleet() {
    }

    /**
     * @param url     broker url, or null to use each entry's url (else the default)
     * @param rate    shaken events per second across the fleet; 0 = only answer invocations
     * @param seconds run time; 0 = until interrupted
     */
    static int run(String url, Path credentials, double rate, long seconds) throws IOException, InterruptedException {
        List<LinkConfig> configs = readCredentials(credentials, url);
        if (configs.isEmpty()) {
            System.err.println("no credentials in " + credentials);
            return 2;
        }
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        ScheduledExecutorService shared = Executors.newScheduledThreadPool(threads, r -> {
            Thread t = new Thread(r, "fleet");
            t.setDaemon(true);
            return t;
        });
        List<DeskBot> boards = new CopyOnWriteArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> boards.forEach(DeskBot::close), "fleet-shutdown"));
        // Paho 1.2.5 spends ~300 ms in every connect (it polls its three new threads with 100 ms sleeps),
        // so boards connect side by side or a thousand of them would take five minutes
        ExecutorService starters = Executors.newFixedThreadPool(Math.min(STARTERS, configs.size()));
        List<Future<DeskBot>> starting = new ArrayList<>();
        for (LinkConfig config : configs) {
            starting.add(starters.submit(() -> startBoard(config, shared)));
        }
        for (Future<DeskBot> future : starting) {
            try {
                DeskBot bot = future.get();
                if (bot != null) {
                    boards.add(bot);
                }
            } catch (ExecutionException e) {
                System.err.println("board start failed: " + e.getCause());
            }
        }
        starters.shutdown();
        if (boards.isEmpty()) {
            System.err.println("no board could connect; giving up");
            shared.shutdownNow();
            return 1;
        }
        System.out.printf("fleet: %d of %d boards online, rate %.1f events/s%n", boards.size(), configs.size(), rate);

        AtomicLong sent = new AtomicLong();
        long startNanos = System.nanoTime();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("peak_g", 2.4);
        data.put("strength", "hard");
        if (rate > 0) {
            shared.scheduleAtFixedRate(() -> {
                // catch up to the schedule: open loop, whatever happened to earlier events
                long due = (long) ((System.nanoTime() - startNanos) / 1e9 * rate);
                while (sent.get() < due) {
                    DeskBot bot = boards.get((int) (sent.getAndIncrement() % boards.size()));
                    bot.emitEvent("shaken", data);
                }
            }, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        }
        shared.scheduleAtFixedRate(() -> System.out.printf("fleet: %d online, %d events sent, %d invocations received%n",
                boards.stream().filter(SimulatedBoard::isConnected).count(), sent.get(),
                boards.stream().mapToLong(SimulatedBoard::invocationCount).sum()), REPORT_S, REPORT_S, TimeUnit.SECONDS);

        CountDownLatch forever = new CountDownLatch(1);
        if (seconds > 0) {
            forever.await(seconds, TimeUnit.SECONDS);
            boards.forEach(DeskBot::close);
            shared.shutdownNow();
        } else {
            forever.await();
        }
        return 0;
    }

    private static DeskBot startBoard(LinkConfig config, ScheduledExecutorService shared) {
        DeskBot bot = new DeskBot(config, shared);
        bot.setHistoryLimit(FLEET_HISTORY);
        // boards at rest never shake; sampling thousands of idle accelerometers is pure noise
        bot.setAmbientImu(false);
        try {
            bot.start();
            return bot;
        } catch (BoardLinkException e) {
            System.err.println(config.clientId() + ": " + e.getMessage());
            bot.close();
            return null;
        }
    }

    /** {@code [{"id","password"}]}, or pairing responses {@code {"id","mqtt":{"url","username","password"}}}. */
    static List<LinkConfig> readCredentials(Path file, String url) throws IOException {
        JsonNode root = FirmwareJson.MAPPER.readTree(Files.readAllBytes(file));
        List<LinkConfig> configs = new ArrayList<>();
        for (JsonNode entry : root) {
            JsonNode mqtt = entry.path("mqtt");
            String id = text(entry, "id", mqtt.path("username").asText(null));
            String password = text(entry, "password", mqtt.path("password").asText(null));
            String entryUrl = text(entry, "url", mqtt.path("url").asText(null));
            if (id == null || password == null) {
                throw new IOException("every entry needs id and password: " + entry);
            }
            String broker = url != null ? url : entryUrl != null ? entryUrl : Main.DEFAULT_URL;
            configs.add(new LinkConfig(broker, id, password, entry.path("suffix").asText(null)));
        }
        return configs;
    }

    private static String text(JsonNode entry, String field, String fallback) {
        JsonNode v = entry.get(field);
        return v != null && v.isTextual() ? v.asText() : fallback;
    }
}
