/**
 * The MQTT link, an adapter: the platform's connections, topics and envelopes, registration,
 * presence, the embedded broker and Mosquitto's dynamic security. Inbound it hands events to the
 * router and answers to the dispatcher's answer lane; outbound it implements {@link
 * dev.ringzero.dispatch.InvokeLink}, {@link dev.ringzero.gadgets.PairingLink} and {@link
 * dev.ringzero.gadgets.BrokerAccess}. It decides nothing.
 *
 * <p>May use: {@code router}, {@code dispatch}, {@code gadgets}, {@code policy}, {@code accounts},
 * {@code kernel}, the root. Nothing uses it but Spring's wiring.
 */
package dev.ringzero.gateway;
