package dev.ringzero.fuzz;

import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * The platform's ERROR lines while a fuzz target runs: over MQTT there is no status code, and an
 * input the platform could not handle shows as an ERROR (an admission that failed, a dropped event,
 * an unexpected failure). Only lines that name one of the target's gadgets, or come from the link
 * or the problem handler, count, so another test's leftovers in the shared context do not.
 */
final class ErrorLog implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final List<String> gadgets;

    ErrorLog(List<String> gadgets) {
        this.gadgets = gadgets;
        appender.start();
        root.addAppender(appender);
    }

    /** The ERROR lines so far that concern this target. */
    List<String> errors() {
        List<ILoggingEvent> events;
        synchronized (appender) {
            events = new ArrayList<>(appender.list);
        }
        List<String> errors = new ArrayList<>();
        for (ILoggingEvent event : events) {
            if (!event.getLevel().isGreaterOrEqual(Level.ERROR)) {
                continue;
            }
            String line = event.getLoggerName() + ": " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : " (" + event.getThrowableProxy().getClassName() + ": "
                            + event.getThrowableProxy().getMessage() + ")");
            if (event.getLoggerName().startsWith("dev.ringzero.gateway") || event.getLoggerName().endsWith("ProblemAdvice")
                    || event.getLoggerName().startsWith("org.apache.catalina")
                    || gadgets.stream().anyMatch(line::contains)) {
                errors.add(line);
            }
        }
        return errors;
    }

    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }
}
