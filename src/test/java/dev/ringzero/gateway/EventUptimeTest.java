package dev.ringzero.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@code link.event}'s {@code uptime_ms}: the board's clock, taken only when it can be one. */
class EventUptimeTest {

    private final ObjectMapper json = new ObjectMapper();

    private Long uptime(String params) throws Exception {
        return LinkGateway.uptime(json.readTree(params).path("uptime_ms"));
    }

    @Test
    void aWholeNumberOfMillisecondsIsTheBoardsClock() throws Exception {
        assertThat(uptime("{\"uptime_ms\":123456}")).isEqualTo(123_456L);
        assertThat(uptime("{\"uptime_ms\":0}")).isZero();
        assertThat(uptime("{\"uptime_ms\":" + LinkGateway.MAX_UPTIME_MS + "}")).isEqualTo(LinkGateway.MAX_UPTIME_MS);
    }

    @Test
    void anythingElseIsNoClockAndTheEventIsAdmittedWithoutOne() throws Exception {
        for (String params : new String[] {"{}", "{\"uptime_ms\":null}", "{\"uptime_ms\":\"123\"}",
                "{\"uptime_ms\":12.5}", "{\"uptime_ms\":-1}", "{\"uptime_ms\":" + (LinkGateway.MAX_UPTIME_MS + 1) + "}",
                "{\"uptime_ms\":123456789012345678901234567890}", "{\"uptime_ms\":{\"ms\":1}}"}) {
            JsonNode node = json.readTree(params);
            assertThat(LinkGateway.uptime(node.path("uptime_ms"))).as(params).isNull();
        }
    }
}
