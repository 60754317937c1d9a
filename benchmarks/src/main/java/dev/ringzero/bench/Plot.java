package dev.ringzero.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Renders the latency-over-time plot of one or more result files as a plain SVG: one panel per
 * result, per second of the measured phase the p50, p99 and max of event → link.invoke (by the
 * second the event was sent), the MQTT floor's p50 and the targets as reference lines,
 * on a logarithmic latency axis.
 *
 * <pre>Plot out.svg result1.json [result2.json ...]</pre>
 */
public final class Plot {

    private static final int W = 900;
    private static final int PANEL_H = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 45;

    private Plot() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Plot out.svg result.json [result.json ...]");
            System.exit(2);
        }
        List<JsonNode> results = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            results.add(Rest.JSON.readTree(Path.of(args[i]).toFile()));
        }
        Files.writeString(Path.of(args[0]), svg(results));
        System.out.println("wrote " + args[0]);
    }

    static String svg(List<JsonNode> results) {
        int h = results.size() * (PANEL_H + TOP + BOTTOM);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", W, h, W, h));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, h));
        for (int i = 0; i < results.size(); i++) {
            panel(s, results.get(i), i * (PANEL_H + TOP + BOTTOM));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static void panel(StringBuilder s, JsonNode r, int y0) {
        JsonNode c = r.path("config");
        JsonNode timeline = r.path("timeline");
        int seconds = Math.max(1, c.path("seconds").asInt());
        double maxValue = 1;
        for (JsonNode row : timeline) {
            maxValue = Math.max(maxValue, row.path("max_ms").asDouble(0));
        }
        double lo = 0.5;
        double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(maxValue, 60))));
        int plotW = W - LEFT - RIGHT;
        int top = y0 + TOP;
        JsonNode l = r.path("latency_event_to_invoke");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                LEFT, y0 + 22, esc(String.format(Locale.ROOT,
                        "event → link.invoke, %.0f events/s, %d gadgets, %d agents: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                        c.path("rate_per_s").asDouble(), c.path("gadgets").asInt(), c.path("agents").asInt(),
                        l.path("p50_ms").asDouble(), l.path("p99_ms").asDouble(), l.path("max_ms").asDouble()))));
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>%n", LEFT, top, plotW, PANEL_H));
        // y grid: decades and 2x, 5x
        for (double d = Math.pow(10, Math.floor(Math.log10(lo))); d <= hi * 1.0001; d *= 10) {
            for (double m : new double[] {1, 2, 5}) {
                double v = d * m;
                if (v < lo || v > hi) {
                    continue;
                }
                double y = y(v, lo, hi, top);
                s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
                        LEFT, y, LEFT + plotW, y));
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                        LEFT - 6, y + 4, fmt(v)));
            }
        }
        s.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" "
                + "text-anchor=\"middle\">ms (log)</text>%n", top + PANEL_H / 2, top + PANEL_H / 2));
        // x axis
        int step = seconds <= 30 ? 5 : seconds <= 120 ? 10 : 30;
        for (int t = 0; t <= seconds; t += step) {
            double x = LEFT + plotW * (double) t / seconds;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n",
                    x, top + PANEL_H + 16, t));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds into the measured "
                + "phase (by send time)</text>%n", LEFT + plotW / 2, top + PANEL_H + 34));
        // reference lines
        double floor = r.at("/floors/mqtt_round_trip/p50_ms").asDouble(0);
        reference(s, floor, lo, hi, top, plotW, "#2a9d8f", "MQTT floor p50");
        reference(s, 15, lo, hi, top, plotW, "#e9c46a", "target p50 15 ms");
        reference(s, 50, lo, hi, top, plotW, "#f4a261", "target p99 50 ms");
        // series
        series(s, timeline, "max_ms", "#bbbbbb", lo, hi, top, plotW, seconds);
        series(s, timeline, "p99_ms", "#e76f51", lo, hi, top, plotW, seconds);
        series(s, timeline, "p50_ms", "#264653", lo, hi, top, plotW, seconds);
        legend(s, LEFT + plotW + 12, top + 10, "#264653", "p50 per second");
        legend(s, LEFT + plotW + 12, top + 28, "#e76f51", "p99 per second");
        legend(s, LEFT + plotW + 12, top + 46, "#bbbbbb", "max per second");
    }

    private static void series(StringBuilder s, JsonNode timeline, String field, String color, double lo, double hi,
            int top, int plotW, int seconds) {
        StringBuilder points = new StringBuilder();
        for (JsonNode row : timeline) {
            if (!row.has(field)) {
                continue;
            }
            double x = LEFT + plotW * (row.path("s").asInt() + 0.5) / seconds;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", Math.min(LEFT + plotW, x),
                    y(row.path(field).asDouble(), lo, hi, top)));
        }
        s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"/>%n",
                points.toString().trim(), color));
    }

    private static void reference(StringBuilder s, double v, double lo, double hi, int top, int plotW, String color,
            String label) {
        if (v <= 0 || v < lo || v > hi) {
            return;
        }
        double y = y(v, lo, hi, top);
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                + "stroke-dasharray=\"6 4\" stroke-width=\"1.5\"/>%n", LEFT, y, LEFT + plotW, y, color));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\">%s</text>%n", LEFT + plotW + 12,
                y + 4, color, esc(label + " (" + fmt(v) + ")")));
    }

    private static void legend(StringBuilder s, int x, int y, String color, String label) {
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                + "stroke-width=\"2.5\"/><text x=\"%d\" y=\"%d\">%s</text>%n", x, y, x + 18, y, color, x + 24, y + 4,
                esc(label)));
    }

    private static double y(double v, double lo, double hi, int top) {
        double clamped = Math.max(lo, Math.min(hi, v));
        return top + PANEL_H - PANEL_H * (Math.log10(clamped) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
    }

    private static String fmt(double v) {
        return v >= 10 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
