package dev.ringzero.ecosystem.calendar;

import dev.ringzero.accounts.Caller;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** The caller's own calendar feed, and the day it gives, so an owner can see that it works. */
@RestController
@RequestMapping("/api/v1/calendar")
@Tag(name = "calendar", description = "the owner's iCalendar feed, which the llm tools calendar.today and "
        + "calendar.next_meeting read")
class CalendarController {

    private final CalendarFeeds feeds;

    CalendarController(CalendarFeeds feeds) {
        this.feeds = feeds;
    }

    /** Exactly one of url and file; timeZone defaults to UTC. */
    record FeedRequest(String url, String file, String timeZone) {
    }

    @PutMapping
    @Operation(summary = "Set the caller's calendar feed: {\"url\": \"https://…\"} or {\"file\": \"name.ics\"} (a "
            + "name in the platform's calendar directory), and \"timeZone\" (IANA, default UTC). The feed is "
            + "read once first; 400 says what is wrong with it")
    CalendarFeed put(Caller caller, @RequestBody FeedRequest body) {
        return feeds.configure(caller.accountId(), body.url(), body.file(), body.timeZone());
    }

    @GetMapping
    @Operation(summary = "The caller's calendar feed; 404 when none is set")
    CalendarFeed get(Caller caller) {
        return feeds.feed(caller.accountId()).orElseThrow(CalendarFeeds::notConfigured);
    }

    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Remove the caller's calendar feed; 404 when none is set")
    void delete(Caller caller) {
        if (!feeds.remove(caller.accountId())) {
            throw CalendarFeeds.notConfigured();
        }
    }

    @GetMapping("/today")
    @Operation(summary = "The caller's events of today in the feed's time zone, as calendar.today returns them; "
            + "404 without a feed, 409 when the feed cannot be read now (the reason says why)")
    CalendarDay today(Caller caller) {
        return feeds.today(caller.accountId());
    }
}
