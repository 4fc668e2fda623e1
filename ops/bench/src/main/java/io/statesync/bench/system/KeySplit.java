package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;

import io.statesync.app.StatesyncApp;

/**
 * The GET paths of resources that instance A owns and of those the other instance owns, told apart by the
 * {@code X-Statesync-Served-By} header of a first read through the owner ({@code consistency=owner}), as a client
 * would see it. The measured reads are plain GETs, which either instance may answer from its own resource view.
 */
record KeySplit(List<String> local, List<String> forwarded) {

    private static final String OWNER = "?consistency=owner";

    /** The forwarded keys' paths with {@code consistency=owner}, so that A forwards every read to B. */
    List<String> forwardedThroughOwner() {
        return forwarded.stream().map(p -> p + OWNER).toList();
    }

    /** The local keys' paths with {@code consistency=owner}: A reads its own store, what B does for a forward. */
    List<String> localThroughOwner() {
        return local.stream().map(p -> p + OWNER).toList();
    }

    static String path(int k) {
        return "/api/v1/resources/" + Workload.key(k);
    }

    static KeySplit of(StatesyncApp a, int sample) throws Exception {
        String self = "x-statesync-served-by: " + a.restServer().advertisedServer() + "\n";
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
                (conn.lastHeaders().contains(self) ? local : forwarded).add(path);
            }
        }
        if (local.isEmpty() || forwarded.isEmpty()) {
            throw new IllegalStateException("one instance owns every sampled key: " + local.size() + " local, " + forwarded.size() + " forwarded");
        }
        return new KeySplit(local, forwarded);
    }
}
