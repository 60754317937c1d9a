package dev.ringzero.agents.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The owner's calendar as the {@code calendar.*} tools read it. */
final class OwnerCalendar {

    private OwnerCalendar() {
    }

    /** No calendar integration: the tools say so, and the model can tell the owner. */
    static LocalTools.Calendar none(ObjectMapper json) {
        return new LocalTools.Calendar() {
            @Override
            public JsonNode today(String ownerId) {
                throw new IllegalStateException("the owner has no calendar configured");
            }

            @Override
            public JsonNode nextMeeting(String ownerId) {
                throw new IllegalStateException("the owner has no calendar configured");
            }
        };
    }
}
