package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The fault suite's and the benchmark's parts for several nodes (issue 24): arguments, node choice, the comparison. */
class ClusterHarnessTest {

    private static CrashSuite.Plan plan(String... argv) {
        String[] base = {"--jar", "ringzero.jar", "--data-dir", "/tmp/fault", "--jdbc", "jdbc:postgresql://h/db",
                "--mqtt-service-password", "secret"};
        String[] all = new String[base.length + argv.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(argv, 0, all, base.length, argv.length);
        return CrashSuite.plan(new Args(all));
    }

    @Test
    void oneNodeIsTheDefaultAndKeepsItsPortDirectoryAndEnvironment() {
        CrashSuite.Plan underTest = plan("--shape", "production");

        assertThat(underTest.nodes()).isEqualTo(1);
        assertThat(underTest.loadSeconds()).isZero();
        assertThat(underTest.httpPort(0)).isEqualTo(18900);
        assertThat(underTest.dataDir(0)).isEqualTo(Path.of("/tmp/fault"));
        assertThat(underTest.environment(0)).doesNotContainKeys("RINGZERO_CLUSTER", "RINGZERO_MQTT_NODE_ID")
                .isEqualTo(underTest.environment());
    }

    @Test
    void eachOfTwoNodesRunsInClusterModeWithItsOwnIdPortAndDataDirectory() {
        CrashSuite.Plan underTest = plan("--shape", "production", "--nodes", "2", "--http-port", "18900");

        assertThat(underTest.httpPort(0)).isEqualTo(18900);
        assertThat(underTest.httpPort(1)).isEqualTo(18901);
        assertThat(underTest.dataDir(0)).isEqualTo(Path.of("/tmp/fault/node-1"));
        assertThat(underTest.dataDir(1)).isEqualTo(Path.of("/tmp/fault/node-2"));
        Map<String, String> second = underTest.environment(1);
        assertThat(second).containsEntry("RINGZERO_CLUSTER", "true").containsEntry("RINGZERO_MQTT_NODE_ID", "2")
                .containsEntry("SPRING_PROFILES_ACTIVE", "postgres,mosquitto");
        assertThat(underTest.environment(0)).containsEntry("RINGZERO_MQTT_NODE_ID", "1");
        assertThat(second.get("RINGZERO_ADMIN_PASSWORD")).isEqualTo(underTest.environment(0)
                .get("RINGZERO_ADMIN_PASSWORD"));
    }

    @Test
    void twoNodesOnTheDefaultShapeAreRefusedWithTheReason() {
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> plan("--nodes", "2"))
                .withMessageContaining("--shape production").withMessageContaining("one PostgreSQL");
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> plan("--shape", "production", "--nodes", "0"));
    }

    @Test
    void withOneNodeTheVictimIsItAndNoNumberIsDrawnSoOldSeedsReplay() {
        Random underTest = new Random(42);
        Random untouched = new Random(42);

        assertThat(CrashSuite.victim(underTest, 1)).isZero();
        assertThat(underTest.nextInt()).isEqualTo(untouched.nextInt());
    }

    @Test
    void withTwoNodesASeedPicksTheSameNodesAgainAndBothGetPicked() {
        Set<Integer> picked = new HashSet<>();
        Random first = new Random(7);
        Random again = new Random(7);
        for (int i = 0; i < 50; i++) {
            int victim = CrashSuite.victim(first, 2);
            assertThat(victim).isEqualTo(CrashSuite.victim(again, 2)).isBetween(0, 1);
            picked.add(victim);
        }
        assertThat(picked).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void aKillFallsWithinTheFirstHalfOfTheStretchOrAsBeforeWithoutOne() {
        Random random = new Random(3);
        for (int i = 0; i < 200; i++) {
            assertThat(CrashSuite.killAfterMillis(random, 60, 1)).isBetween(3_000L, 32_999L);
            assertThat(CrashSuite.killAfterMillis(random, 0, 1)).isBetween(3_000L, 9_999L);
        }
    }

    @Test
    void theComparisonShowsEachNodesCostAndADashForWhatAResultLacks() {
        ObjectNode one = Rest.JSON.createObjectNode();
        one.putObject("config").put("label", "c-1node").put("nodes", 1).put("rate_per_s", 100.0);
        one.putObject("latency_event_to_invoke").put("p50_ms", 9.5).put("p99_ms", 48.25);
        one.putObject("counts").put("runs_started", 9000).put("losses", 0);
        one.putObject("throughput").put("load_wall_s", 90.0);
        one.putObject("resources").putObject("measured_phase").putObject("cpu_ms_per_admitted_event")
                .put("platform", 6.1).put("postgresql", 2.0);
        ObjectNode two = one.deepCopy();
        ((ObjectNode) two.get("config")).put("label", "c-2nodes").put("nodes", 2);
        ((ObjectNode) two.at("/resources/measured_phase")).putObject("cpu_ms_per_admitted_event_by_node")
                .put("node1", 3.4).put("node2", 3.6);

        String underTest = NodeComparison.render(one, two);

        assertThat(underTest).containsPattern("event -> command p99 ms\\s+48\\.25\\s+48\\.25");
        assertThat(underTest).containsPattern("runs/s \\(runs started / load wall\\)\\s+100\\.0\\s+100\\.0");
        assertThat(underTest).containsPattern("CPU ms/event: each node\\s+node1 6\\.10\\s+node1 3\\.40, node2 3\\.60");
        assertThat(underTest).containsPattern("CPU ms/event: Mosquitto\\s+-\\s+-");
    }
}
