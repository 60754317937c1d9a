package dev.ringzero.gateway;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code ringzero.mqtt.*}: where the broker is and how the platform logs in to it.
 *
 * @param embedded     run the in-process broker (zero setup) instead of using an external one
 * @param host         broker host (devices get {@code tcp://host:port} at pairing)
 * @param port         broker port; the embedded default 18830 stays clear of a system broker on 1883
 * @param serviceUsername the platform's own broker identity
 * @param servicePassword its password; generated per start when the broker is embedded and none is set
 * @param nodeId       this node's name; the platform's client id is {@code serviceUsername-nodeId}
 * @param sharedGroup  when set, inbound topics use MQTT shared subscriptions so several nodes split the load
 */
@ConfigurationProperties("ringzero.mqtt")
public record MqttSettings(boolean embedded, String host, int port, String serviceUsername, String servicePassword,
        String nodeId, String sharedGroup) {

    public MqttSettings {
        host = host == null || host.isBlank() ? "127.0.0.1" : host;
        port = port == 0 ? 18830 : port;
        serviceUsername = serviceUsername == null || serviceUsername.isBlank() ? "ringzero-platform" : serviceUsername;
        nodeId = nodeId == null || nodeId.isBlank() ? "1" : nodeId;
    }

    public String url() {
        return "tcp://" + host + ":" + port;
    }

    public String clientId() {
        return serviceUsername + "-" + nodeId;
    }
}
