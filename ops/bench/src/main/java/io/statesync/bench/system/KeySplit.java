package io.statesync.bench.system;

import java.util.ArrayList;
import java.util.List;

import io.statesync.app.StatesyncApp;

/**
 * The GET paths of resources that instance A serves itself and of those it forwards to the other instance, told
 * apart by the {@code X-Statesync-Served-By} header of a first read, as a client would see it.
 */
record KeySplit(List<String> local, List<String> forwarded) {

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
                byte[] request = conn.request(path);
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
