/**
 * What ring 0 knows of each gadget: pairing and unpairing, its credential (hashed), presence,
 * quiet hours, and what it registered ({@link dev.ringzero.gadgets.GadgetRegistry}: commands with
 * their parameters, events, capabilities).
 *
 * <p>Owns the ports {@link dev.ringzero.gadgets.BrokerAccess} (which logins the broker accepts),
 * {@link dev.ringzero.gadgets.PairingLink} (notices to a device) and {@link
 * dev.ringzero.gadgets.GadgetDirectory} (validation's one question); the gateway implements the first
 * two. May use: {@code accounts}, {@code kernel}, the root.
 */
package dev.ringzero.gadgets;
