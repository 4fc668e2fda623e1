package io.statesync.embedded.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/** Waits until a broker answers a cluster description, which is when clients can use it. */
final class BrokerReadiness {
    private BrokerReadiness() {
    }

    static void await(String bootstrapServers, Duration timeout, BooleanSupplier stillStarting) {
        long deadline = System.nanoTime() + timeout.toNanos();
        // Waiting for the port first keeps a starting broker from filling the log with admin-client connection warnings.
        Readiness.await("Broker port " + bootstrapServers, timeout, stillStarting,
                () -> acceptsConnections(bootstrapServers));
        Duration remaining = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200))) {
            Readiness.await("Broker at " + bootstrapServers, remaining, stillStarting, () -> answers(admin));
        }
    }

    private static boolean acceptsConnections(String bootstrapServers) {
        String first = bootstrapServers.split(",")[0].trim();
        int colon = first.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(first.substring(0, colon), Integer.parseInt(first.substring(colon + 1))),
                    500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean answers(Admin admin) {
        try {
            var options = new DescribeClusterOptions().timeoutMs(2000);
            return !admin.describeCluster(options).nodes().get(3, TimeUnit.SECONDS).isEmpty();
        } catch (ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
