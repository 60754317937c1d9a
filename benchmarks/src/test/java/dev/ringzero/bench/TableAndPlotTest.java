package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import javax.xml.parsers.DocumentBuilderFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The table and the plot of results the docs keep (docs/benchmarks/), as a reader would render them. */
class TableAndPlotTest {

    private static JsonNode stored(String label) throws Exception {
        return Rest.JSON.readTree(Path.of("..", "docs", "benchmarks", label + ".json").toFile());
    }

    @Test
    void aStoredResultRendersItsFiguresAndVerdicts() throws Exception {
        String table = Table.render(stored("s5-r4-defaults-r100"));
        assertThat(table).startsWith("RingZero benchmark s5-r4-defaults-r100 — 200 gadgets, 200 agents, 100 events/s");
        assertThat(table).containsPattern("event -> link.invoke \\(at the gadget\\)\\s+6000\\s+4\\.89\\s+[0-9.]+\\s+64\\.54");
        assertThat(table).contains("LOSSES 0");
        assertThat(table).contains("at_100_per_s_p99_le_50ms=missed").contains("at_100_per_s_p50_le_15ms=met");
        // stored before the machine probe existed: no probe line rather than zeros
        assertThat(table).doesNotContain("machine probe");
    }

    @Test
    void aProbeIsShownAndAnEmptyHistogramIsADash() throws Exception {
        ObjectNode r = (ObjectNode) stored("s5-r4-defaults-r100");
        ((ObjectNode) r.get("machine")).putObject("probe").put("cpu_model", "AMD EPYC")
                .put("tcp_loopback_round_trip_p50_us", 15.7).put("tcp_loopback_round_trip_p99_us", 70.8)
                .put("sha256_mib_per_s", 1433);
        r.putObject("send_lag").put("count", 0);
        String table = Table.render(r);
        assertThat(table).contains("machine probe: AMD EPYC; loopback TCP round trip p50 15.7 µs, p99 70.8 µs; SHA-256 1433 MiB/s");
        assertThat(table).containsPattern("generator send lag \\(schedule adherence\\)\\s+-\\n");
    }

    @Test
    void aFailedProbeSaysSoAndFiguresKeepTheirDotInAnyLocale() throws Exception {
        ObjectNode r = (ObjectNode) stored("s5-r4-defaults-r100");
        ((ObjectNode) r.get("machine")).putObject("probe").put("cpu_model", "AMD EPYC")
                .put("tcp_loopback_error", "java.net.SocketTimeoutException: Read timed out")
                .put("sha256_mib_per_s", 1433);
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            String table = Table.render(r);
            assertThat(table).contains("loopback TCP round trip failed (java.net.SocketTimeoutException: Read timed out)")
                    .doesNotContain("p50 0.0 µs");
            assertThat(table).containsPattern("event -> link.invoke \\(at the gadget\\)\\s+6000\\s+4\\.89");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void thePlotIsWellFormedSvgWithAPanelPerResult() throws Exception {
        String svg = Plot.svg(List.of(stored("s5-r4b-defaults-r100"), stored("s5-r5-final-r300")));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(svg).contains("event → link.invoke, 100 events/s, 200 gadgets, 200 agents: p50 5.4 ms, p99 29.3 ms")
                .contains("event → link.invoke, 300 events/s");
        // p50, p99 and max per second, in each of the two panels
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(6);
    }
}
