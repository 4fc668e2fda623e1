package io.statesync.reliability;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Another host, as far as TCP can tell: a network namespace of its own, joined to this one by a veth pair with an
 * address on each end. A connection from inside it to {@link #hostAddress()} arrives on a non-loopback interface of
 * this machine, as one from another machine would. Made with {@code ip} (iproute2), which needs root (or
 * CAP_NET_ADMIN); {@link #close()} deletes the namespace, and the veth pair with it.
 *
 * <p>Names and the /30 subnet (in 198.18.0.0/15, reserved for such tests) are random, so that runs side by side on
 * one machine do not meet.
 */
final class OffHostNetwork implements AutoCloseable {

    /** What a connection attempt from the namespace came to. */
    enum Connect { CONNECTED, REFUSED, OTHER }

    /** One attempt: its outcome and what the client printed. */
    record Attempt(Connect outcome, String output) {
    }

    private final String namespace;
    private final InetAddress hostAddress;

    private OffHostNetwork(String namespace, InetAddress hostAddress) {
        this.namespace = namespace;
        this.hostAddress = hostAddress;
    }

    /** @throws IOException with the failing command and its output when the namespace cannot be set up */
    static OffHostNetwork create() throws IOException, InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String id = Integer.toString(random.nextInt(1 << 20, 1 << 24), 36);
        String ns = "ssit-" + id;
        String hostEnd = "ssh" + id;
        String nsEnd = "ssn" + id;
        int third = random.nextInt(256);
        int fourth = random.nextInt(64) * 4;
        String prefix = "198." + (18 + random.nextInt(2)) + "." + third + ".";
        String host = prefix + (fourth + 1);
        String peer = prefix + (fourth + 2);
        run("ip", "netns", "add", ns);
        OffHostNetwork network = new OffHostNetwork(ns, InetAddress.getByName(host));
        try {
            run("ip", "link", "add", hostEnd, "type", "veth", "peer", "name", nsEnd, "netns", ns);
            run("ip", "addr", "add", host + "/30", "dev", hostEnd);
            run("ip", "link", "set", hostEnd, "up");
            run("ip", "-n", ns, "addr", "add", peer + "/30", "dev", nsEnd);
            run("ip", "-n", ns, "link", "set", nsEnd, "up");
            run("ip", "-n", ns, "link", "set", "lo", "up");
            return network;
        } catch (IOException | InterruptedException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** This machine's address on the veth pair: not loopback, and reached from the namespace through the pair. */
    InetAddress hostAddress() {
        return hostAddress;
    }

    /** A TCP connection from inside the namespace (bash's /dev/tcp), bounded at 5 s. */
    Attempt connectFromNamespace(InetAddress address, int port) throws IOException, InterruptedException {
        Result r = exec(List.of("ip", "netns", "exec", namespace, "timeout", "5", "bash", "-c",
            "exec 3<>/dev/tcp/" + address.getHostAddress() + "/" + port));
        Connect outcome = r.exit == 0 ? Connect.CONNECTED : r.output.contains("Connection refused") ? Connect.REFUSED : Connect.OTHER;
        return new Attempt(outcome, r.output.strip());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        // Deleting the namespace destroys its end of the pair, and with it this end.
        exec(List.of("ip", "netns", "del", namespace));
    }

    @Override
    public String toString() {
        return "namespace " + namespace + " reaching this host at " + hostAddress.getHostAddress();
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Result r = exec(List.of(command));
        if (r.exit != 0) {
            throw new IOException(String.join(" ", command) + " exited " + r.exit + ": " + r.output.strip());
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish within 30 s");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
