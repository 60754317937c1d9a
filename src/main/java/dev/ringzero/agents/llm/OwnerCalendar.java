package dev.ringzero.agents.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ringzero.ecosystem.calendar.CalendarDay;
import dev.ringzero.ecosystem.calendar.CalendarEvent;
import dev.ringzero.ecosystem.calendar.CalendarFeeds;

/**
 * The owner's calendar as the {@code calendar.*} tools read it: ring 3's feeds, turned into what
 * the model reads. A feed that is missing or cannot be read throws, and the tool answers
 * {@code failed} with the reason (the model can tell the owner).
 */
final class OwnerCalendar implements LocalTools.Calendar {

    private final CalendarFeeds feeds;
    private final ObjectMapper json;

    OwnerCalendar(CalendarFeeds feeds, ObjectMapper json) {
        this.feeds = feeds;
        this.json = json;
    }

    @Override
    public JsonNode today(String ownerId) {
        CalendarDay day = feeds.today(ownerId);
        ObjectNode node = json.createObjectNode().put("date", day.date().toString())
                .put("timeZone", day.timeZone().getId());
        com.fasterxml.jackson.databind.node.ArrayNode events = node.putArray("events");
        day.events().forEach(event -> events.add(event(event)));
        if (!day.leftOut().isEmpty()) {
            node.set("leftOut", json.valueToTree(day.leftOut()));
        }
        return node;
    }

    @Override
    public JsonNode nextMeeting(String ownerId) {
        return feeds.nextMeeting(ownerId).<JsonNode>map(this::event)
                .orElseGet(() -> json.createObjectNode().put("none", "no meeting is left today"));
    }

    private ObjectNode event(CalendarEvent event) {
        ObjectNode node = json.createObjectNode().put("title", event.title()).put("start", event.start().toString())
                .put("end", event.end().toString()).put("allDay", event.allDay());
        if (event.location() != null) {
            node.put("location", event.location());
        }
        return node;
    }
}
