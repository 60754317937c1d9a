package dev.ringzero;

import java.sql.SQLException;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * A start that finds the H2 database file held by another process says so in one sentence, not
 * in a page of stack traces: most often it is the previous process of the same data directory,
 * still stopping (or still running), and starting again once it has exited is the remedy.
 */
class DatabaseLockedFailureAnalyzer implements FailureAnalyzer {

    /** H2's {@code ErrorCode.DATABASE_ALREADY_OPEN_1}: "Database may be already in use". */
    static final int H2_DATABASE_ALREADY_OPEN = 90020;

    private static final String ACTION = "Stop that process, or wait until it has exited, then start again. "
            + "One data directory (./data) serves one process at a time.";

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof DatabaseLockCheck.DatabaseLockedException locked) {
                // found before anything opened the database (DatabaseLockCheck)
                return new FailureAnalysis("The database is locked: another process has " + locked.file()
                        + " open (another RingZero on this data directory, still running or still stopping).",
                        ACTION, locked);
            }
            if (t instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
                // locked between that check and the pool's first connection
                return new FailureAnalysis("The database is locked: another process has the H2 file open ("
                        + firstLine(sql.getMessage()) + ").", ACTION, sql);
            }
        }
        return null;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
