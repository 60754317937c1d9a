/**
 * Ring 0's policy kernel: the one place in RingZero that says yes.
 *
 * <p>Every action an agent, a client or a gate wants performed is decided here ({@link PolicyKernel}):
 * ownership, pairing, grants, privileged commands, quiet hours, revision fences, budgets
 * ({@link Budgets}, {@link RunMeter}) and the trust ladder ({@link TrustLadder}). Shared gadget resources
 * are arbitrated here too ({@link SpeakerArbiter}, {@link MoverLease}).
 *
 * <p>The package is plain Java and must stay so: it imports only the JDK and itself, never Spring,
 * Camunda, Spring Integration, JPA, Jackson, JDBC or MQTT types. That keeps every rule provable with
 * plain unit tests and keeps framework wiring from carrying authority in. Facts arrive through small
 * ports ({@link PolicyFacts}, {@link TrustRules}, {@link TrustHistory}) that adapters outside the package
 * implement; time is always passed in, and the kernel starts no threads of its own.
 */
package dev.ringzero.kernel;
