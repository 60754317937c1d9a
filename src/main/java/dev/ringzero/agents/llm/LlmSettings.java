package dev.ringzero.agents.llm;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code ringzero.llm.*}: the model {@code llm} runs talk to. Without a base URL and a model no
 * model is configured: {@code llm} definitions still validate and save, and their runs end
 * {@code failed} with {@code llm_unconfigured}.
 *
 * @param baseUrl        an OpenAI-compatible server's root, without {@code /v1} (OpenAI
 *                       {@code https://api.openai.com}, Ollama {@code http://localhost:11434}, ...)
 * @param model          the model's name as that server knows it
 * @param apiKey         sent as a bearer token; many local servers want none
 * @param connectTimeout how long to wait for the server's connection
 * @param replyTimeout   how long one model turn may take: the client cuts the exchange then, whether
 *                       the server is silent or still sending, and the turn's wait in the run ends
 *                       two seconds later at the latest
 * @param dailyTokensPerOwner tokens (in and out) all of one owner's runs may spend per UTC day
 * @param maxTokensPerTurn the ceiling of one reply's tokens (lower when the run's tokensPerRun is nearer)
 * @param workers        model turns in flight at once on this node (each holds one thread while it
 *                       waits for the server; never an engine thread or a database connection)
 * @param yieldToEvents  how long a model's reply may wait, at most, for this node's device events
 *                       to be routed before it is recorded (device reactions first), and a session
 *                       woken by its command's answer before it moves on; zero: no wait. Within
 *                       the reply's grace, so a reply that waits never misses its deadline
 */
@ConfigurationProperties("ringzero.llm")
public record LlmSettings(String baseUrl, String model, String apiKey, Duration connectTimeout,
        Duration replyTimeout, int dailyTokensPerOwner, int maxTokensPerTurn, int workers, Duration yieldToEvents) {

    public LlmSettings {
        baseUrl = baseUrl == null ? "" : baseUrl.trim();
        model = model == null ? "" : model.trim();
        apiKey = apiKey == null ? "" : apiKey.trim();
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(5) : connectTimeout;
        replyTimeout = replyTimeout == null ? Duration.ofSeconds(60) : replyTimeout;
        dailyTokensPerOwner = dailyTokensPerOwner <= 0 ? 200_000 : dailyTokensPerOwner;
        maxTokensPerTurn = maxTokensPerTurn <= 0 ? 1024 : maxTokensPerTurn;
        workers = workers <= 0 ? 16 : workers;
        yieldToEvents = yieldToEvents == null || yieldToEvents.isNegative() ? Duration.ofSeconds(1)
                : yieldToEvents.compareTo(LlmSessions.REPLY_GRACE) > 0 ? LlmSessions.REPLY_GRACE : yieldToEvents;
    }

    /** Whether a model is configured at all. */
    public boolean configured() {
        return !baseUrl.isEmpty() && !model.isEmpty();
    }
}
