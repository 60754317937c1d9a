package dev.ringzero;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Before anything opens the database: if the default shape's H2 file is locked by another process
 * (H2 holds an OS lock on it while open), the start ends at once with one sentence
 * ({@link DatabaseLockedFailureAnalyzer}) instead of failing half-way through the context with
 * stack traces from the pool, Tomcat and the engine.
 */
class DatabaseLockCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        Path file = h2File(event.getEnvironment().getProperty("spring.datasource.url"));
        if (file != null && Files.isRegularFile(file) && lockedByAnotherProcess(file)) {
            throw new DatabaseLockedException(file);
        }
    }

    /** The H2 file store's {@code .mv.db} file of a file URL, or null for any other database. */
    static Path h2File(String url) {
        if (url == null || !url.startsWith("jdbc:h2:")) {
            return null;
        }
        String name = url.substring("jdbc:h2:".length());
        int options = name.indexOf(';');
        name = options < 0 ? name : name.substring(0, options);
        if (name.startsWith("file:")) {
            name = name.substring("file:".length());
        } else if (name.contains(":")) {
            return null; // mem:, tcp:, ssl:, zip:… hold no local file we could test
        }
        if (name.startsWith("~")) {
            name = System.getProperty("user.home") + name.substring(1);
        }
        return Path.of(name + ".mv.db").toAbsolutePath().normalize();
    }

    private static boolean lockedByAnotherProcess(Path file) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"); FileChannel channel = raf.getChannel()) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return false; // this JVM holds it (a second context in a test): not our case to judge
        } catch (IOException e) {
            return false; // unreadable for another reason: let H2 report it
        }
    }

    @Override
    public int getOrder() {
        // after Spring Boot's logging set-up (which listens to the same event earlier)
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    /** The H2 file of this start is held by another process. */
    static final class DatabaseLockedException extends IllegalStateException {

        private final transient Path file;

        DatabaseLockedException(Path file) {
            super("the H2 database " + file + " is locked by another process");
            this.file = file;
        }

        Path file() {
            return file;
        }
    }
}
