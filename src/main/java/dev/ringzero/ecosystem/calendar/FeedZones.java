package dev.ringzero.ecosystem.calendar;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.Map;

import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistry;
import net.fortuna.ical4j.model.TimeZoneRegistryImpl;

/**
 * The time zones of one parse: a TZID the JDK knows (an IANA name, or a Windows name through
 * ical4j's aliases) is the JDK's zone, whatever VTIMEZONE the feed sends for it; only a TZID
 * nobody knows (a "Customized Time Zone") is built from the feed's own VTIMEZONE.
 *
 * <p>Why not ical4j's default registry: it turns every VTIMEZONE of every parse into a new zone
 * registered with the JDK for good ({@code ZoneRulesProvider} has no way to unregister), so a
 * server that reads feeds all day grows without bound. Here only custom zones go that way, and the
 * JDK's rules are the better definition of a named zone anyway (feeds often carry only the current
 * rule). A new instance per parse: ical4j registers each registry's zones once.
 */
final class FeedZones implements TimeZoneRegistry {

    private final TimeZoneRegistryImpl custom = new TimeZoneRegistryImpl();

    @Override
    public void register(TimeZone timezone) {
        register(timezone, false);
    }

    /** Never updated over the network (ical4j could fetch TZURL definitions): {@code update} is ignored. */
    @Override
    public void register(TimeZone timezone, boolean update) {
        if (!known(timezone.getID())) {
            custom.register(timezone, false);
        }
    }

    @Override
    public void clear() {
        custom.clear();
    }

    @Override
    public TimeZone getTimeZone(String id) {
        return custom.getTimeZone(id);
    }

    @Override
    public Map<String, ZoneRules> getZoneRules() {
        return custom.getZoneRules();
    }

    @Override
    public ZoneId getZoneId(String tzId) {
        return custom.getZoneId(tzId);
    }

    @Override
    public String getTzId(String zoneId) {
        return custom.getTzId(zoneId);
    }

    static boolean known(String tzId) {
        try {
            TimeZoneRegistry.getGlobalZoneId(tzId);
            return true;
        } catch (DateTimeException | IllegalArgumentException e) {
            return false;
        }
    }
}
