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
 * stack: an event's path is some sixty of them) and plain computation (SHA-256, in a loop the JIT
 * has compiled). Machines of the same kind differ from one day to the next (a virtual machine's
 * host, its hypervisor), and a figure from one is read against another's only through these.
 */
final class MachineProbe {

    private static final int ROUND_TRIPS = 20_000;
    private static final int HASH_MIB = 64;

    private MachineProbe() {
    }

    /** The probe alone: {@code java -cp <harness jar> dev.ringzero.bench.MachineProbe}. */
    public static void main(String[] args) {
        System.out.println(run().toPrettyString());
    }

    static ObjectNode run() {
        ObjectNode probe = JsonNodeFactory.instance.objectNode();
        probe.put("cpu_model", cpuModel());
        try {
            long[] rtt = loopbackRoundTrips(ROUND_TRIPS);
            probe.put("tcp_loopback_round_trip_p50_us", rtt[rtt.length / 2] / 1000.0);
            probe.put("tcp_loopback_round_trip_p99_us", rtt[(int) (rtt.length * 0.99)] / 1000.0);
        } catch (IOException | InterruptedException e) {
            probe.put("tcp_loopback_error", e.toString());
        }
        probe.put("sha256_mib_per_s", Math.round(sha256MibPerSecond() * 10) / 10.0);
        return probe;
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

    /** One byte there and back, {@code n} times, each timed; sorted, the first 10 % (warm-up) left out. */
    private static long[] loopbackRoundTrips(int n) throws IOException, InterruptedException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread echo = new Thread(() -> {
                try (Socket s = server.accept()) {
                    s.setTcpNoDelay(true);
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    int b;
                    while ((b = in.read()) >= 0) {
                        out.write(b);
                    }
                } catch (IOException ignored) {
                    // the client closed: done
                }
            }, "probe-echo");
            echo.setDaemon(true);
            echo.start();
            long[] nanos = new long[n];
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                s.setTcpNoDelay(true);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    out.write(1);
                    if (in.read() < 0) {
                        throw new IOException("the echo closed early");
                    }
                    nanos[i] = System.nanoTime() - t0;
                }
            }
            echo.join(1000);
            long[] measured = Arrays.copyOfRange(nanos, n / 10, n);
            Arrays.sort(measured);
            return measured;
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
