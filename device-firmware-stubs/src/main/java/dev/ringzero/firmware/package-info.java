/**
 * Simulated gadget firmware: boards that know nothing of the platform except the
 * MQTT link contract (docs/contracts.md section 1).
 *
 * <p>The platform compiles this package as test sources so its integration tests
 * can start boards in-process; that is why the code here uses only Paho, Jackson
 * and the JDK, and logs through {@link java.lang.System.Logger}.
 */
package dev.ringzero.firmware;
