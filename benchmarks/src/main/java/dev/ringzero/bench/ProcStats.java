package dev.ringzero.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time and memory of another process, from /proc (Linux). */
final class ProcStats {

    private final long pid;
    private final long clockTicks;

    ProcStats(long pid, long clockTicks) {
        this.pid = pid;
        this.clockTicks = clockTicks;
    }

    /**
     * CPU seconds of every process named {@code name} now (for PostgreSQL: the postmaster, its
     * background processes and every backend, the platform's pooled connections among them; a
     * backend that exited meanwhile takes its time with it).
     */
    static double cpuSecondsOfAllNamed(String name, long clockTicks) {
        return sumOverProcesses((pid, stat) -> stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).equals(name)
                ? cpuSeconds(stat, clockTicks) : 0);
    }

    /**
     * CPU seconds of a server process and its children now, the exited children's included (the
     * kernel adds a reaped child's time to its parent's cutime and cstime): for PostgreSQL, the
     * postmaster of one server, its background processes and backends, and no other server's.
     */
    static double cpuSecondsOfTree(long root, long clockTicks) {
        return sumOverProcesses((pid, stat) -> pid == root || parentPid(stat) == root
                ? cpuSecondsWithReapedChildren(stat, clockTicks) : 0);
    }

    /** What one process adds to a sum: its pid and its /proc/PID/stat text in, seconds out. */
    private interface PerProcess {
        double seconds(long pid, String stat);
    }

    /** The sum over every process now; one that is gone meanwhile adds nothing. NaN without /proc. */
    private static double sumOverProcesses(PerProcess each) {
        double total = 0;
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String pidText = proc.getFileName().toString();
                if (!pidText.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    total += each.seconds(Long.parseLong(pidText), Files.readString(proc.resolve("stat")));
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return total;
    }

    /** The parent's pid in one /proc/PID/stat text (field 4). */
    static long parentPid(String stat) {
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+")[1]);
    }

    /** utime + stime + cutime + cstime (fields 14 to 17) of one /proc/PID/stat text, in seconds. */
    static double cpuSecondsWithReapedChildren(String stat, long clockTicks) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]))
                / (double) clockTicks;
    }

    long pid() {
        return pid;
    }

    /**
     * CPU seconds of the process's threads now, by thread name without its number ({@code
     * link-worker-2} and {@code link-worker-3} are {@code link-worker-}; Linux keeps 15 characters
     * of a name): the JIT's compiler threads are {@code C1 CompilerThre} and {@code C2 CompilerThre}.
     */
    java.util.Map<String, Double> cpuSecondsByThread() {
        java.util.Map<String, Double> byName = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+$", "");
                    byName.merge(name, cpuSeconds(stat, clockTicks), Double::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            // the process is gone
        }
        return byName;
    }

    /** utime + stime, in seconds. */
    double cpuSeconds() {
        try {
            return cpuSeconds(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), clockTicks);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** utime + stime of one /proc/PID/stat text, in seconds. */
    static double cpuSeconds(String stat, long clockTicks) {
        // the command name may contain spaces and parentheses: fields start after the last ')'
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // after the name, field 3 (state) is f[0]; utime is field 14 → f[11], stime field 15 → f[12]
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) clockTicks;
    }

    /** A field of /proc/pid/status in MiB ({@code VmHWM}: peak RSS, {@code VmRSS}: now). */
    double statusMiB(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field + ":")) {
                    String kb = line.substring(field.length() + 1).trim().split("\\s+")[0];
                    return Math.round(Long.parseLong(kb) / 1024.0 * 10) / 10.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return Double.NaN;
    }

    int threads() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("Threads:")) {
                    return Integer.parseInt(line.substring(8).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return -1;
    }
}
