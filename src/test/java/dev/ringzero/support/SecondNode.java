package dev.ringzero.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.ringzero.RingZeroApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A second node of the platform in the test JVM: the whole application again, in a Spring context
 * of its own, on the database and broker of {@link PlatformTest}'s context (node 1) and with the
 * same test settings, so a test can act on both nodes of a two-node cluster.
 *
 * <p>It differs from node 1 only where two nodes of a real cluster differ: its node name
 * ({@code ringzero.mqtt.node-id}, which names its MQTT clients and its job executor's lock owner),
 * its HTTP port, and the name of its process engine (Camunda keeps one static registry of the
 * engines of a JVM; in a real cluster each JVM has its own). It does not recreate the database:
 * node 1 did, once per JVM, and a node joining a cluster finds its schema in place.
 *
 * <p>Started once and shared (a context takes seconds to start on two cores); a test class that
 * uses it stops it in its {@code @AfterAll}, so the test classes after it do not meet a second
 * node that also receives their MQTT traffic. A JVM shutdown hook stops it otherwise.
 */
public final class SecondNode {

    public static final String NODE_ID = "2";
    public static final String ENGINE_NAME = "node2";

    private static ConfigurableApplicationContext context;
    private static boolean hooked;

    private SecondNode() {
    }

    /** Node 2, started if it is not running. Call it once node 1 (the test's own context) is up. */
    public static synchronized ConfigurableApplicationContext start() {
        if (context == null || !context.isActive()) {
            List<String> arguments = new ArrayList<>();
            for (Map.Entry<String, Supplier<Object>> property : PlatformTest.properties().entrySet()) {
                arguments.add("--" + property.getKey() + "=" + property.getValue().get());
            }
            arguments.add("--server.port=0");
            arguments.add("--ringzero.mqtt.node-id=" + NODE_ID);
            arguments.add("--camunda.bpm.process-engine-name=" + ENGINE_NAME);
            context = new SpringApplicationBuilder(RingZeroApplication.class)
                    .profiles("postgres", "mosquitto")
                    .run(arguments.toArray(String[]::new));
            if (!hooked) {
                Runtime.getRuntime().addShutdownHook(new Thread(SecondNode::stop, "stop-second-node"));
                hooked = true;
            }
        }
        return context;
    }

    /** Node 2's HTTP port (the REST API, as on node 1). */
    public static int port() {
        return ((ServletWebServerApplicationContext) start()).getWebServer().getPort();
    }

    /** A bean of node 2: its own instance, not node 1's. */
    public static <T> T bean(Class<T> type) {
        return start().getBean(type);
    }

    public static synchronized void stop() {
        if (context != null) {
            context.close();
            context = null;
        }
    }
}
