package dev.ringzero.agents.llm;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

/**
 * What one model turn's HTTP exchange costs the node: {@link OpenAiCompatibleModel#ask} against
 * an OpenAI-compatible server in this JVM that answers at once, from {@code workers} threads at a
 * time, as a node's model-turn workers ask. Prints, per ask, the CPU of every thread but the
 * server's (the client's: the asking thread and any thread the client uses), the wall time, and
 * the threads started. Not a test: {@code benchmarks/model-client.sh} runs it
 * (docs/benchmarks.md, the twenty-third series).
 *
 * <pre>ModelClientBench [asks=3000] [workers=16] [rounds=6]</pre>
 */
public final class ModelClientBench {

    private static final byte[] COMPLETION = """
            {"id":"x","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,
             "finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1",
             "type":"function","function":{"name":"speaker__say","arguments":"{\\"text\\":\\"good morning\\"}"}}]}}],
             "usage":{"prompt_tokens":700,"completion_tokens":30,"total_tokens":730}}"""
            .getBytes(StandardCharsets.UTF_8);

    private ModelClientBench() {
    }

    public static void main(String[] args) throws Exception {
        int asks = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Set<Long> serverThreads = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, COMPLETION.length);
            exchange.getResponseBody().write(COMPLETION);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(workers, work -> {
            Thread thread = new Thread(work, "model-server");
            thread.setDaemon(true);
            serverThreads.add(thread.getId());
            return thread;
        }));
        server.start();
        // the server's own thread that accepts connections and reads requests is the server's too
        Thread.getAllStackTraces().keySet().stream().filter(thread -> thread.getName().startsWith("HTTP-Dispatcher"))
                .forEach(thread -> serverThreads.add(thread.getId()));
        OpenAiCompatibleModel model = new OpenAiCompatibleModel(new LlmSettings(
                "http://127.0.0.1:" + server.getAddress().getPort(), "m", null, Duration.ofSeconds(2),
                Duration.ofSeconds(10), 0, 0, workers, null));
        ModelCall call = new ModelCall(List.of(new Message.System("You are a desk gadget's agent. ".repeat(40)),
                new Message.User("{\"event\":\"picked_up\",\"data\":{\"at\":\"07:45\"}}")),
                List.of(tool("speaker__say", "speaker.say"), tool("display__show_text", "display.show_text")), 1024);
        System.out.printf("model client: %d asks per round from %d workers, %d rounds (the first warms up)%n", asks,
                workers, rounds);
        for (int round = 1; round <= rounds; round++) {
            long started = threads.getTotalStartedThreadCount();
            long process = processCpuNanos();
            long serverCpu = cpuOf(threads, serverThreads);
            long wall = System.nanoTime();
            ExecutorService asking = Executors.newFixedThreadPool(workers);
            for (int i = 0; i < asks; i++) {
                asking.execute(() -> {
                    ModelReply reply = model.ask(call);
                    if (!(reply instanceof ModelReply.Answered)) {
                        throw new IllegalStateException("the exchange failed: " + reply);
                    }
                });
            }
            asking.shutdown();
            asking.awaitTermination(10, TimeUnit.MINUTES);
            long client = processCpuNanos() - process - (cpuOf(threads, serverThreads) - serverCpu);
            System.out.printf("round %d: %.3f ms CPU per ask besides the server's, %.3f ms wall per ask, %.2f threads "
                    + "started per ask%n", round, client / 1e6 / asks, (System.nanoTime() - wall) / 1e6 / asks,
                    (threads.getTotalStartedThreadCount() - started - workers) / (double) asks);
        }
        model.close();
        server.stop(0);
    }

    private static ToolSpec tool(String wire, String command) {
        return new ToolSpec(wire, command, ToolSpec.Kind.COMMAND, "the gadget's " + command,
                "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}");
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long cpuOf(ThreadMXBean threads, Set<Long> ids) {
        return ids.stream().mapToLong(threads::getThreadCpuTime).filter(cpu -> cpu > 0).sum();
    }
}
