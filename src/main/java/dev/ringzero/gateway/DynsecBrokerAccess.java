package dev.ringzero.gateway;

import dev.ringzero.gadgets.BrokerAccess;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provisions device identities in Mosquitto 2's dynamic-security plugin over
 * {@code $CONTROL/dynamic-security/v1}: one client per gadget (username = gadget id) with a
 * role that may publish and subscribe only to its own topics, as {@link DeviceRights} says
 * (its client id is checked by {@code mqtt-broker/ringzero_clientid.c}, which dynamic security
 * cannot do: it pins one exact client id or none).
 * Deleting the client makes Mosquitto refuse the credential and kick its connections.
 */
public class DynsecBrokerAccess implements BrokerAccess {

    public static final String CONTROL_TOPIC = "$CONTROL/dynamic-security/v1";
    public static final String RESPONSE_TOPIC = CONTROL_TOPIC + "/response";

    private static final String ROLE_PREFIX = "gadget-";

    private static final Logger log = LoggerFactory.getLogger(DynsecBrokerAccess.class);

    private final LinkPublisher publisher;
    private final ObjectMapper json;
    private final Map<String, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();

    public DynsecBrokerAccess(LinkPublisher publisher, ObjectMapper json) {
        this.publisher = publisher;
        this.json = json;
    }

    @Override
    public void provision(String gadgetId, String password) {
        String role = role(gadgetId);
        // a re-pairing starts from a clean slate; "not found" answers are expected then
        run(List.of(Map.of("command", "deleteClient", "username", gadgetId),
                Map.of("command", "deleteRole", "rolename", role)), false);
        run(List.of(
                Map.of("command", "createRole", "rolename", role, "acls", acls(gadgetId)),
                Map.of("command", "createClient", "username", gadgetId, "password", password,
                        "roles", List.of(Map.of("rolename", role)))), true);
    }

    @Override
    public void revoke(String gadgetId) {
        run(List.of(Map.of("command", "deleteClient", "username", gadgetId),
                Map.of("command", "deleteRole", "rolename", role(gadgetId))), false);
    }

    /** The gadgets with a role here (every device client has one, {@code gadget-<id>}). */
    @Override
    public java.util.Set<String> credentialed() {
        JsonNode roles = run(List.of(Map.of("command", "listRoles", "verbose", false, "count", -1, "offset", 0)), true)
                .get(0).path("data").path("roles");
        java.util.Set<String> gadgets = new java.util.TreeSet<>();
        for (JsonNode role : roles) { // not verbose: each role is its name
            String name = role.asText();
            if (name.startsWith(ROLE_PREFIX)) {
                gadgets.add(name.substring(ROLE_PREFIX.length()));
            }
        }
        return gadgets;
    }

    /** Called by the gateway for messages on {@link #RESPONSE_TOPIC}. */
    public void onResponse(byte[] payload) {
        try {
            for (JsonNode response : json.readTree(payload).path("responses")) {
                CompletableFuture<JsonNode> future = waiting.remove(response.path("correlationData").asText());
                if (future != null) {
                    future.complete(response);
                }
            }
        } catch (java.io.IOException e) {
            log.warn("unreadable dynamic-security response: {}", e.getMessage());
        }
    }

    private List<JsonNode> run(List<Map<String, Object>> commands, boolean mustSucceed) {
        List<CompletableFuture<JsonNode>> futures = new java.util.ArrayList<>();
        List<Map<String, Object>> correlated = new java.util.ArrayList<>();
        for (Map<String, Object> command : commands) {
            String correlation = UUID.randomUUID().toString();
            CompletableFuture<JsonNode> future = new CompletableFuture<>();
            waiting.put(correlation, future);
            futures.add(future);
            Map<String, Object> withId = new java.util.HashMap<>(command);
            withId.put("correlationData", correlation);
            correlated.add(withId);
        }
        try {
            publisher.publish(CONTROL_TOPIC, json.writeValueAsBytes(Map.of("commands", correlated)), false);
            List<JsonNode> responses = new java.util.ArrayList<>();
            for (int i = 0; i < futures.size(); i++) {
                JsonNode response = futures.get(i).get(5, TimeUnit.SECONDS);
                if (mustSucceed && response.hasNonNull("error")) {
                    throw new IllegalStateException("Mosquitto refused " + commands.get(i).get("command") + ": "
                            + response.path("error").asText());
                }
                responses.add(response);
            }
            return responses;
        } catch (TimeoutException e) {
            throw new IllegalStateException("Mosquitto's dynamic-security plugin did not answer; is mqtt-broker/ "
                    + "configuration in use and the platform's credential its admin?", e);
        } catch (ExecutionException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            correlated.forEach(command -> waiting.remove((String) command.get("correlationData")));
        }
    }

    /**
     * The device role's rights: publish to the device → platform topics, subscribe to the
     * platform → device ones, nothing else (dynamic security's defaults refuse publishing and
     * subscribing). mqtt-broker/start.sh rewrites roles provisioned earlier the same way.
     */
    static List<Map<String, Object>> acls(String gadgetId) {
        List<Map<String, Object>> acls = new java.util.ArrayList<>();
        for (String suffix : DeviceRights.PUBLISHES) {
            acls.add(Map.of("acltype", "publishClientSend", "topic", Topics.of(gadgetId, suffix), "allow", true));
        }
        for (String suffix : DeviceRights.SUBSCRIBES) {
            for (String type : List.of("publishClientReceive", "subscribePattern", "unsubscribePattern")) {
                acls.add(Map.of("acltype", type, "topic", Topics.of(gadgetId, suffix), "allow", true));
            }
        }
        return acls;
    }

    private static String role(String gadgetId) {
        return ROLE_PREFIX + gadgetId;
    }

}
