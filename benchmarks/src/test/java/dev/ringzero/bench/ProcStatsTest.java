package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ProcStatsTest {

    /** Linux's USER_HZ, what getconf CLK_TCK says on every x86-64 and arm64 kernel. */
    private static final long CLK_TCK = 100;

    @Test
    void cpuTimeIsReadAfterTheLastParenthesisOfTheName() {
        // a name with spaces and parentheses, as a thread may have; utime 250, stime 50 ticks
        String stat = "4242 (MQTT (Rec) 7) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 12 0 0";
        assertThat(ProcStats.cpuSeconds(stat, CLK_TCK)).isCloseTo(3.0, within(1e-9));
    }

    @Test
    void aServersTreeCountsItsParentAndTheTimeOfChildrenItReaped() {
        // a backend: parent 900; utime 250, stime 50, cutime 30, cstime 20 ticks
        String stat = "4242 (postgres) S 900 4242 4242 0 -1 4194560 100 0 0 0 250 50 30 20 20 0 12 0 0";
        assertThat(ProcStats.parentPid(stat)).isEqualTo(900);
        assertThat(ProcStats.cpuSecondsWithReapedChildren(stat, CLK_TCK)).isCloseTo(3.5, within(1e-9));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aBusyThreadsCpuShowsUnderItsNameWithoutTheNumber() throws InterruptedException {
        ProcStats self = new ProcStats(ProcessHandle.current().pid(), CLK_TCK);
        double before = self.cpuSeconds();
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread busy = new Thread(() -> {
            // half a second of its own CPU time, however long a loaded machine takes to give it
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long wallLimit = System.nanoTime() + 60_000_000_000L;
            while (threads.getCurrentThreadCpuTime() < 500_000_000L && System.nanoTime() < wallLimit) {
                Thread.onSpinWait();
            }
            spun.countDown();
            try {
                // stay alive: a finished thread's time leaves /proc/PID/task with it
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "spin-worker-7");
        busy.start();
        assertThat(spun.await(70, TimeUnit.SECONDS)).isTrue();
        double byThread = self.cpuSecondsByThread().getOrDefault("spin-worker-", 0.0);
        release.countDown();
        busy.join();
        // /proc counts in ticks of 10 ms: the thread's half second, give or take a few
        assertThat(byThread).isBetween(0.4, 0.7);
        assertThat(self.cpuSeconds() - before).isGreaterThanOrEqualTo(0.4);
        assertThat(self.statusMiB("VmHWM")).isGreaterThan(1);
        assertThat(self.threads()).isGreaterThan(1);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aProcessThatIsGoneReadsAsNotANumberNotAsZero() {
        ProcStats gone = new ProcStats(Integer.MAX_VALUE, CLK_TCK);
        assertThat(gone.cpuSeconds()).isNaN();
        assertThat(gone.statusMiB("VmHWM")).isNaN();
        assertThat(gone.threads()).isEqualTo(-1);
        assertThat(gone.cpuSecondsByThread()).isEmpty();
    }
}
