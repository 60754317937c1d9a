package dev.ringzero.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.ringzero.support.Api.Response;

/**
 * What one fuzz target found. The properties every answer must have: never a 5xx, and every 4xx an
 * {@code application/problem+json} document with a {@code type}. Whatever breaks them (or a
 * target's own properties) is collected with the seed and the case number, so a failure names the
 * input that caused it; all of them go to {@code target/fuzz/<target>.txt} in full.
 */
final class Findings {

    private static final int SHOWN = 5;
    private static final int SHOWN_INPUT_CHARS = 600;

    private final String target;
    private final long seed;
    private final List<String> found = new ArrayList<>();
    private int cases;

    Findings(String target, long seed) {
        this.target = target;
        this.seed = seed;
    }

    /** Checks one answer; true if it was a refusal (4xx) of the right form. */
    boolean answer(int n, String route, String input, Response response) {
        cases++;
        int status = response.status();
        if (status >= 500 || status < 200 || (status >= 300 && status < 400)) {
            add(n, route, input, "answered " + status + ": " + clip(response.body()));
            return false;
        }
        if (status >= 400) {
            if (!response.isProblem()) {
                add(n, route, input, "a " + status + " that is not problem+json (" + response.contentType() + "): "
                        + clip(response.body()));
                return true;
            }
            try {
                if (response.problemType().isBlank()) {
                    add(n, route, input, "a " + status + " problem without a type: " + clip(response.body()));
                }
            } catch (IllegalStateException e) {
                add(n, route, input, "a " + status + " problem that is not JSON: " + clip(response.body()));
            }
            return true;
        }
        return false;
    }

    void add(int n, String route, String input, String what) {
        found.add("case " + n + " " + route + ": " + what + "\n    input: " + input);
    }

    void counted() {
        cases++;
    }

    int cases() {
        return cases;
    }

    /** Fails the test if anything was found, naming the seed and the first few cases. */
    void assertNone() {
        if (found.isEmpty()) {
            return;
        }
        Path file = Path.of("target", "fuzz", target + ".txt");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "seed " + seed + "\n" + String.join("\n", found) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the message below still names them
        }
        StringBuilder message = new StringBuilder("fuzz target '" + target + "' (seed " + seed
                + ", -Dringzero.fuzz.seed=" + seed + " replays it) found " + found.size() + " problem(s) in " + cases
                + " cases; all in " + file.toAbsolutePath() + "; the first:");
        found.stream().limit(SHOWN).forEach(line -> message.append("\n  ").append(clip(line)));
        throw new AssertionError(message.toString());
    }

    static String clip(String text) {
        String shown = text.length() <= SHOWN_INPUT_CHARS ? text
                : text.substring(0, SHOWN_INPUT_CHARS) + "… (" + text.length() + " chars)";
        StringBuilder escaped = new StringBuilder(shown.length());
        shown.codePoints().forEach(cp -> {
            if (cp < 0x20 && cp != '\n' || cp == 0x7f) {
                escaped.append(String.format("\\u%04x", cp));
            } else {
                escaped.appendCodePoint(cp);
            }
        });
        return escaped.toString();
    }
}
