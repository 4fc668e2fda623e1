package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;

import io.statesync.app.StatesyncApp;
import io.statesync.topology.StatesyncTopology;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * The GET paths of resources that instance A owns and of those the other instance owns, told apart by Kafka
 * Streams' metadata for the key. Every read is answered by A from its own resource view; the split shows whether
 * owning a key makes any difference to its reads.
 */
record KeySplit(List<String> local, List<String> forwarded) {

    private static final String OWNER = "?consistency=owner";

    /** The other instance's keys' paths with {@code consistency=owner}: A catches up with the committed end first. */
    List<String> forwardedThroughOwner() {
        return forwarded.stream().map(p -> p + OWNER).toList();
    }

    /** A's own keys' paths with {@code consistency=owner}. */
    List<String> localThroughOwner() {
        return local.stream().map(p -> p + OWNER).toList();
    }

    static String path(int k) {
        return "/api/v1/resources/" + Workload.key(k);
    }

    static KeySplit of(StatesyncApp a, int sample) throws Exception {
        HostInfo self = HostInfo.buildFromEndpoint(a.restServer().advertisedServer());
        List<String> local = new ArrayList<>();
        List<String> forwarded = new ArrayList<>();
        try (HttpConnection conn = new HttpConnection(a.httpPort())) {
            for (int k = 0; k < sample; k++) {
                String path = path(k);
                byte[] request = conn.request(path + OWNER);
                int status = conn.send(request);
                for (int retries = 0; status == 503 && retries < 100; retries++) {
                    Thread.sleep(100);
                    status = conn.send(request);
                }
                if (status != 200) {
                    throw new IllegalStateException("GET " + path + " answered " + status + " after loading");
                }
                KeyQueryMetadata owner = a.streams().queryMetadataForKey(StatesyncTopology.STATE_STORE, Workload.key(k),
                    Serdes.String().serializer());
                (self.equals(owner.activeHost()) ? local : forwarded).add(path);
            }
        }
        if (local.isEmpty() || forwarded.isEmpty()) {
            throw new IllegalStateException("one instance owns every sampled key: " + local.size() + " local, " + forwarded.size() + " forwarded");
        }
        return new KeySplit(local, forwarded);
    }
}
