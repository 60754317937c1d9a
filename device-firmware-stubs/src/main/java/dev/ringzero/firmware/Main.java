package dev.ringzero.firmware;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Command line: one interactive board, or a fleet of desk bots for load tests.
 *
 * <pre>
 * desk  --url tcp://127.0.0.1:18830 --id desk-1 --password X [--suffix dbg]
 * rover --url tcp://127.0.0.1:18830 --id rover-1 --password X
 * fleet --url tcp://127.0.0.1:18830 --credentials creds.json [--rate R] [--duration S]
 * </pre>
 */
public final class Main {

    static final String DEFAULT_URL = "tcp://127.0.0.1:18830";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        // one line per record; must be set before the first logger exists
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT.%1$tL %4$-7s %5$s%6$s%n");
        }
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            usage(System.out);
            return;
        }
        Map<String, String> options;
        try {
            options = options(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            usage(System.err);
            System.exit(2);
            return;
        }
        int status = switch (args[0]) {
            case "desk", "rover" -> interactive(args[0], options);
            case "fleet" -> fleet(options);
            default -> {
                System.err.println("unknown mode " + args[0]);
                usage(System.err);
                yield 2;
            }
        };
        System.exit(status);
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return value;
    }

    private static int fleet(Map<String, String> options) throws Exception {
        String credentials = required(options, "credentials");
        double rate = Double.parseDouble(options.getOrDefault("rate", "0"));
        long seconds = Long.parseLong(options.getOrDefault("duration", "0"));
        return Fleet.run(options.get("url"), Path.of(credentials), rate, seconds);
    }

    private static int interactive(String kind, Map<String, String> options) throws Exception {
        LinkConfig config = new LinkConfig(options.getOrDefault("url", DEFAULT_URL), required(options, "id"),
                required(options, "password"), options.get("suffix"));
        PrintStream out = System.out;
        try (SimulatedBoard board = kind.equals("desk") ? new DeskBot(config) : new Rover(config)) {
            board.onInvocation(inv -> out.printf("<- %s %s %s [%s]%n", inv.command(), inv.id(), inv.params(),
                    inv.handling()));
            try {
                board.start();
            } catch (BoardLinkException e) {
                System.err.println("could not connect: " + e.getMessage());
                return 1;
            }
            out.println("connected as " + config.clientId() + " to " + config.brokerUrl());
            out.println(board.awaitRegisterReply(Duration.ofSeconds(5))
                    .map(r -> r.ok() ? "registered" : "registration refused: " + r.errorCode() + " " + r.errorMessage())
                    .orElse("no registration reply yet"));
            help(kind, out);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while (!board.unpaired() && (line = in.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                if (words[0].isEmpty()) {
                    continue;
                }
                if (words[0].equals("quit") || words[0].equals("exit")) {
                    break;
                }
                command(board, words, out);
            }
            if (board.unpaired()) {
                out.println("unpaired by the platform; bye");
            }
        }
        return 0;
    }

    private static void command(SimulatedBoard board, String[] words, PrintStream out) {
        DeskBot desk = board instanceof DeskBot d ? d : null;
        switch (words[0]) {
            case "status" -> {
                out.println((board.isConnected() ? "online" : "offline")
                        + ", registered " + board.lastRegisterReply().map(RegisterReply::ok).orElse(false)
                        + ", invocations " + board.invocationCount()
                        + (board.isSilent() ? ", silent" : ""));
                if (desk != null) {
                    out.println("screen: \"" + desk.screenText() + "\", orientation " + desk.orientation()
                            + ", speaker log " + desk.speakerLog().size());
                }
                if (board instanceof Rover rover) {
                    out.println(rover.isMoving() ? "moving" : "standing still");
                }
            }
            case "silent" -> {
                board.setSilent(words.length < 2 || words[1].equals("on"));
                out.println(board.isSilent() ? "silent: invocations are logged, never answered" : "answering again");
            }
            case "help" -> help(desk != null ? "desk" : "rover", out);
            case "shake", "pickup", "putdown", "ptt" -> {
                if (desk == null) {
                    out.println("a rover has no motion sensor or button");
                    return;
                }
                deskCommand(desk, words, out);
            }
            default -> out.println("unknown command; try help");
        }
    }

    private static void deskCommand(DeskBot desk, String[] words, PrintStream out) {
        switch (words[0]) {
            case "shake" -> {
                String id;
                try {
                    id = desk.shake(words.length > 1 ? words[1] : "hard");
                } catch (IllegalArgumentException e) {
                    out.println(e.getMessage());
                    return;
                }
                out.println(id == null ? "shake suppressed (8 s cooldown)" : "-> shaken " + id);
            }
            case "pickup" -> out.println("-> picked_up " + desk.pickUp(words.length > 1 ? words[1] : "face_up"));
            case "putdown" -> out.println("-> put_down " + desk.putDown(words.length > 1 ? words[1] : "face_up"));
            case "ptt" -> {
                out.println("-> ptt_started " + desk.pushToTalkStart());
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                out.println("-> ptt_ended " + desk.pushToTalkEnd());
            }
            default -> { }
        }
    }

    private static void help(String kind, PrintStream out) {
        if (kind.equals("desk")) {
            out.println("commands: shake [hard|gentle] | pickup [orientation] | putdown [orientation] | ptt"
                    + " | status | silent on|off | quit");
        } else {
            out.println("commands: status | silent on|off | quit   (drive it from the platform)");
        }
    }

    private static void usage(PrintStream out) {
        out.println("""
                usage:
                  desk  --url tcp://127.0.0.1:18830 --id desk-1 --password SECRET [--suffix dbg]
                  rover --url tcp://127.0.0.1:18830 --id rover-1 --password SECRET [--suffix dbg]
                  fleet [--url tcp://127.0.0.1:18830] --credentials creds.json [--rate EVENTS_PER_S] [--duration S]
                creds.json: [{"id":"g1","password":"..."}, ...]  (the pairing response {"id","mqtt":{...}} also works)""");
    }
}
