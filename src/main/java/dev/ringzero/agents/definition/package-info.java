/**
 * The v1 gadget-agent definition: its JSON Schema, the parsed {@link dev.ringzero.agents.definition.AgentSpec},
 * and the validation that decides whether an owner may save it.
 *
 * <p>Validation runs in two steps. The schema ({@code schemas/gadget-agent-v1.schema.json}) decides
 * the shape; {@link dev.ringzero.agents.definition.DefinitionValidator} then checks what the shape
 * cannot know: that the gadgets are the caller's, their commands are registered and granted, templates
 * are safe, budgets fit the platform's limits. Every failure comes back as a
 * {@link dev.ringzero.agents.definition.Violation} naming a JSON Pointer, so an author can fix all of
 * them in one go. Nothing here touches storage, Spring or the engine.
 *
 * <p>May use: {@code gadgets} (what an owner's gadgets registered, through {@link
 * dev.ringzero.gadgets.GadgetDirectory}), {@code kernel}, the root.
 */
package dev.ringzero.agents.definition;
