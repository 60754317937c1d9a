package dev.ringzero.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How fast this machine is at the two things the benchmark's path is made of, measured before the
 * load: a loopback TCP round trip between two threads (system calls, the scheduler, the network
 * stack: an event's path is dozens of them) and plain computation (SHA-256, in a loop the JIT
 * has compiled). Machines of the same kind differ from one day to the next (a virtual machine's
 * host, its hypervisor), and a figure from one is read against another's only through these.
 */
final class MachineProbe {

    private static final int ROUND_TRIPS = 20_000;
    /** A machine too busy to finish the round trips in this time gives what it measured by then. */
    private static final long ROUND_TRIP_BUDGET_NANOS = 3_000_000_000L;
    /** Neither side waits longer than this for the other (a dead echo must not hang the benchmark). */
    private static final int SOCKET_TIMEOUT_MS = 5_000;
    private static final int HASH_MIB = 64;

    private MachineProbe() {
    }

    /** The probe alone: {@code java -cp <harness classpath> dev.ringzero.bench.MachineProbe}. */
    public static void main(String[] args) {
        System.out.println(run().toPrettyString());
    }

    static ObjectNode run() {
        ObjectNode probe = JsonNodeFactory.instance.objectNode();
        probe.put("cpu_model", cpuModel());
        try {
            long[] sorted = percentiles(loopbackRoundTrips(ROUND_TRIPS, ROUND_TRIP_BUDGET_NANOS));
            probe.put("tcp_loopback_round_trips", sorted.length);
            probe.put("tcp_loopback_round_trip_p50_us", sorted[percentileIndex(sorted.length, 50)] / 1000.0);
            probe.put("tcp_loopback_round_trip_p99_us", sorted[percentileIndex(sorted.length, 99)] / 1000.0);
        } catch (IOException | RuntimeException e) {
            probe.put("tcp_loopback_error", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            probe.put("tcp_loopback_error", e.toString());
        }
        probe.put("sha256_mib_per_s", Math.round(sha256MibPerSecond() * 10) / 10.0);
        return probe;
    }

    /** The round trips in the order measured, the first tenth (warm-up) left out, sorted. */
    static long[] percentiles(long[] nanosInOrder) {
        if (nanosInOrder.length < 10) {
            throw new IllegalStateException("only " + nanosInOrder.length + " round trips measured");
        }
        long[] measured = Arrays.copyOfRange(nanosInOrder, nanosInOrder.length / 10, nanosInOrder.length);
        Arrays.sort(measured);
        return measured;
    }

    /** Nearest rank: the smallest value with at least {@code percent} % of the values at or below it. */
    static int percentileIndex(int count, double percent) {
        return Math.max(0, (int) Math.ceil(percent / 100 * count) - 1);
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One byte there and back, at most {@code n} times or for {@code budgetNanos}, each timed. */
    private static long[] loopbackRoundTrips(int n, long budgetNanos) throws IOException, InterruptedException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(SOCKET_TIMEOUT_MS);
            Thread echo = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.setTcpNoDelay(true);
                    s.setSoTimeout(SOCKET_TIMEOUT_MS);
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    int b;
                    while ((b = in.read()) >= 0) {
                        out.write(b);
                    }
                } catch (IOException ignored) {
                    // the client closed (done), or gave up: the client sees the error itself
                }
            }, "probe-echo");
            echo.setDaemon(true);
            echo.start();
            long[] nanos = new long[n];
            int done = 0;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                s.setTcpNoDelay(true);
                s.setSoTimeout(SOCKET_TIMEOUT_MS);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                long end = System.nanoTime() + budgetNanos;
                while (done < n && System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    out.write(1);
                    if (in.read() < 0) {
                        throw new IOException("the echo closed early");
                    }
                    nanos[done++] = System.nanoTime() - t0;
                }
            }
            echo.join(1000);
            return Arrays.copyOf(nanos, done);
        }
    }

    /** The best of five passes over {@value #HASH_MIB} MiB: the first ones let the JIT compile. */
    private static double sha256MibPerSecond() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] block = new byte[1 << 20];
            double best = 0;
            for (int pass = 0; pass < 5; pass++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < HASH_MIB; i++) {
                    sha.update(block);
                }
                sha.digest();
                best = Math.max(best, HASH_MIB / ((System.nanoTime() - t0) / 1e9));
            }
            return best;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
