/**
 * BPMN glue, and the only package that imports Camunda: thin delegates that read variables, call
 * one service and write variables; the implementations of the engine ports other packages own
 * ({@link dev.ringzero.agents.runs.RunEngine}, {@link dev.ringzero.gates.GateEngine}, {@link
 * dev.ringzero.Batches}, {@link dev.ringzero.dispatch.RunWake}, {@link
 * dev.ringzero.accounts.LoginDirectory}); process ids and message names; ending instances
 * ({@code ProcessInstances}, the one place); the webapps' identity and authorizations.
 *
 * <p>May use every package; no package uses it but Spring's wiring.
 */
package dev.ringzero.workflow;
