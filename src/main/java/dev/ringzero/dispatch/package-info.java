/**
 * Ring 0's only way to a device: {@link dev.ringzero.dispatch.Dispatcher} asks the kernel at the
 * moment of sending, takes the mover lease, records the invocation ({@code rz_invocation}) and
 * publishes {@code link.invoke} once the caller commits; {@link dev.ringzero.dispatch.AnswerLane}
 * records each {@code link.result} and wakes what waits for it. Also the owner's direct command route.
 *
 * <p>Owns the ports {@link dev.ringzero.dispatch.InvokeLink} (the MQTT gateway publishes),
 * {@link dev.ringzero.dispatch.RunWake} and {@link dev.ringzero.dispatch.AnswerListener} (runs and
 * gates are woken). May use: {@code gadgets}, {@code policy}, {@code accounts}, {@code kernel}, the
 * root. {@code ArchitectureTest} keeps every other class from calling the invoke link.
 */
package dev.ringzero.dispatch;
