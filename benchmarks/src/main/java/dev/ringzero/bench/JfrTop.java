package dev.ringzero.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarizes the CPU samples of a JFR recording ({@code jdk.ExecutionSample}): the top methods by
 * self time (the frame on top of the stack), the top methods by total time (anywhere on the stack,
 * counted once per sample), and the top RingZero methods (dev.ringzero) by total time, so a reader
 * sees what dominates without a flame-graph tool.
 *
 * <pre>JfrTop recording.jfr [top=25] [focus]</pre>
 * With {@code focus} (a substring of a frame, e.g. {@code ExecuteJobsCmd}), only samples whose stack
 * holds such a frame are counted, and the callee frames right below the focus frame are listed too.
 */
public final class JfrTop {

    private JfrTop() {
    }

    public static void main(String[] args) throws Exception {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> total = new HashMap<>();
        Map<String, Integer> threads = new HashMap<>();
        String focus = args.length > 2 ? args[2] : null;
        Map<String, Integer> below = new HashMap<>();
        int samples = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                continue;
            }
            RecordedStackTrace st = e.getStackTrace();
            if (st == null || st.getFrames().isEmpty()) {
                continue;
            }
            List<RecordedFrame> all = st.getFrames();
            int focusAt = -1;
            if (focus != null) {
                for (int i = all.size() - 1; i >= 0; i--) {
                    if (name(all.get(i)).contains(focus)) {
                        focusAt = i;
                        break;
                    }
                }
                if (focusAt < 0) {
                    continue;
                }
                // the frames called from the focus frame, down to two levels
                for (int d = 1; d <= 6 && focusAt - d >= 0; d++) {
                    below.merge(d + " " + name(all.get(focusAt - d)), 1, Integer::sum);
                }
            }
            samples++;
            String thread = e.getThread("sampledThread") == null ? "?" : e.getThread("sampledThread").getJavaName();
            threads.merge(thread == null ? "?" : thread.replaceAll("\\d+", "N"), 1, Integer::sum);
            List<RecordedFrame> frames = st.getFrames();
            self.merge(name(frames.get(0)), 1, Integer::sum);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (seen.add(n)) {
                    total.merge(n, 1, Integer::sum);
                }
            }
        }
        System.out.printf("%d execution samples (run.sh records with stackdepth=256)%n", samples);
        print("top methods by self samples", self, samples, top, null);
        print("top methods by total samples (on the stack)", total, samples, top, null);
        print("top dev.ringzero methods by total samples", total, samples, top, "dev.ringzero.");
        print("samples by thread (digits folded)", threads, samples, 12, null);
        if (focus != null) {
            print("frames 1..6 levels below the outermost '" + focus + "' frame", below, samples, 60, null);
        }
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static void print(String title, Map<String, Integer> counts, int samples, int top, String prefix) {
        System.out.printf("%n%s%n", title);
        counts.entrySet().stream()
                .filter(e -> prefix == null || e.getKey().startsWith(prefix))
                .sorted((a, b) -> b.getValue() - a.getValue())
                .limit(top)
                .forEach(e -> System.out.printf("  %5.1f%%  %6d  %s%n", 100.0 * e.getValue() / samples, e.getValue(),
                        e.getKey()));
    }
}
