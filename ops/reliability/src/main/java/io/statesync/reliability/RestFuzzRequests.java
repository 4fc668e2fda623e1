package io.statesync.reliability;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Seeded generator of bad REST requests, one category at a time. Every request it makes is wrong in at least one
 * way the API must refuse with a 4xx (never a valid write, never a watch that would stream), so any 2xx or 5xx is a
 * finding.
 */
final class RestFuzzRequests {

    /** {@code chunkedBytes} >= 0 streams a chunked body of that size instead of {@code body}. */
    record Request(String category, String method, byte[] target, Map<String, String> headers, byte[] body, long chunkedBytes) {
        String describe() {
            String t = new String(target, StandardCharsets.ISO_8859_1);
            return category + " " + method + " " + (t.length() > 120 ? t.substring(0, 120) + "..." : t)
                + (chunkedBytes >= 0 ? " chunked " + chunkedBytes + " B" : body == null ? "" : " body " + body.length + " B");
        }
    }

    private static final String RES = "/api/v1/resources/WebApp/default/";
    /** The Kubernetes API's collection of WebApps; the scenario writes the kind's policy first, so the kind is served. */
    private static final String KUBE = "/apis/statesync.io/v1/namespaces/default/webapps";
    private static final String JSON = "application/json";
    /** Characters that no label key, value or selector operator may contain. */
    private static final String SELECTOR_POISON = "@#$^*~`{}[]|\\;:'\"<>?%";

    private final Random random;
    private final String writerToken;
    private final String readerToken;
    private final int maxBodyBytes;
    private final long hugeChunkedBytes;
    private final List<Function<Random, Request>> categories = List.of(this::badJson, this::wrongTypes, this::hugeBody,
        this::pathInjection, this::badSelector, this::badWatchPosition, this::badQuery, this::wrongMethod,
        this::wrongContentType, this::badAuth, this::badHeaders, this::kubeBadBody, this::kubeBadRequest);

    /**
     * @param hugeChunkedBytes the largest chunked body to send; well beyond the child's heap shows whether the server
     *                         buffers bodies without bound
     */
    RestFuzzRequests(long seed, String writerToken, String readerToken, int maxBodyBytes, long hugeChunkedBytes) {
        this.random = new Random(seed);
        this.writerToken = writerToken;
        this.readerToken = readerToken;
        this.maxBodyBytes = maxBodyBytes;
        this.hugeChunkedBytes = hugeChunkedBytes;
    }

    synchronized Request next() {
        return categories.get(random.nextInt(categories.size())).apply(random);
    }

    private Request request(String category, String method, String target, String contentType, byte[] body) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + writerToken);
        if (contentType != null) {
            headers.put("Content-Type", contentType);
        }
        return new Request(category, method, target.getBytes(StandardCharsets.UTF_8), headers, body, -1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static String name(Random r) {
        return "fuzz-" + Integer.toString(r.nextInt(1_000_000), 36);
    }

    private Request badJson(Random r) {
        String valid = "{\"metadata\":{\"labels\":{\"a\":\"b\"}},\"spec\":{\"image\":\"nginx\",\"replicas\":3}}";
        byte[] body = switch (r.nextInt(9)) {
            case 0 -> utf8(valid.substring(0, 1 + r.nextInt(valid.length() - 2)));
            case 1 -> randomBytes(r, 1 + r.nextInt(2_000));
            case 2 -> utf8(valid + pick(r, " x", "}", ",", "[]", " {}"));
            case 3 -> utf8("{\"spec\":{},\"spec\":{\"a\":1}}");
            case 4 -> utf8("[".repeat(2_000 + r.nextInt(30_000)));
            case 5 -> utf8("{\"spec\":{\"a\":\"" + "x".repeat(r.nextInt(100)));
            case 6 -> utf8(pick(r, "{\"spec\":NaN}", "{\"spec\":{'a':1}}", "{spec:{}}", "{\"spec\":{\"a\":01}}", "{\"spec\":{\"a\":.5}}"));
            case 7 -> concat(utf8("{\"spec\":{\"a\":\""), new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc0}, utf8("\"}}"));
            default -> utf8("{\"spec\":" + "{\"a\":".repeat(1_500 + r.nextInt(3_000)));
        };
        boolean patch = r.nextInt(4) == 0;
        return request("bad-json", patch ? "PATCH" : "PUT", RES + name(r), patch ? "application/merge-patch+json" : JSON, body);
    }

    private Request wrongTypes(Random r) {
        String body = pick(r, "[]", "[{\"spec\":{}}]", "42", "\"spec\"", "null", "true",
            "{\"metadata\":[]}", "{\"metadata\":\"x\"}", "{\"metadata\":{\"labels\":[\"a\"]}}",
            "{\"metadata\":{\"labels\":{\"a\":1}}}", "{\"metadata\":{\"labels\":{\"a\":{\"b\":\"c\"}}}}",
            "{\"metadata\":{\"annotations\":\"x\"}}", "{\"metadata\":{\"finalizers\":{\"a\":\"b\"}}}",
            "{\"metadata\":{\"finalizers\":[1,2]}}", "{\"apiVersion\":\"v0\",\"spec\":{}}",
            "{\"kind\":\"Other\",\"spec\":{}}", "{\"metadata\":{\"name\":\"someone-else\"},\"spec\":{}}",
            "{\"metadata\":{\"namespace\":\"other\"},\"spec\":{}}");
        if (r.nextInt(5) == 0) {
            return request("wrong-types", "PUT", "/api/v1/kinds/" + pick(r, "WebApp", "Fuzzed"), JSON,
                utf8(pick(r, "[]", "7", "{\"maxAttempts\":\"many\"}", "{\"orphanPolicy\":\"SOMETIMES\"}",
                    "{\"ignoredFields\":\"spec\"}", "{\"backoffBaseMs\":{}}")));
        }
        return request("wrong-types", "PUT", RES + name(r), JSON, utf8(body));
    }

    private Request hugeBody(Random r) {
        String target = r.nextBoolean() ? RES + name(r) : "/api/v1/kinds/WebApp";
        switch (r.nextInt(4)) {
            case 0 -> {
                byte[] body = new byte[maxBodyBytes + 1 + r.nextInt(3 * maxBodyBytes)];
                java.util.Arrays.fill(body, (byte) ' ');
                body[0] = '{';
                return request("huge-body", "PUT", target, JSON, body);
            }
            case 1 -> {
                Request base = request("huge-body", "PUT", target, JSON, null);
                long size = r.nextInt(8) == 0 ? hugeChunkedBytes : maxBodyBytes + 1 + r.nextInt(8 * maxBodyBytes);
                return new Request("huge-body-chunked", "PUT", base.target(), base.headers(), null, size);
            }
            case 2 -> {
                Request base = request("huge-body", r.nextBoolean() ? "PUT" : "PATCH", target, JSON, utf8("{}"));
                base.headers().put("Content-Length", String.valueOf(maxBodyBytes + 1 + (long) r.nextInt(Integer.MAX_VALUE)));
                return base;
            }
            default -> {
                Request base = request("bad-length", "PUT", target, JSON, utf8("{}"));
                base.headers().put("Content-Length", pick(r, "-1", "abc", "1e9", "99999999999999999999999"));
                return base;
            }
        }
    }

    private Request pathInjection(Random r) {
        String bad = pick(r, "..", "../..", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", "a%2Fb", "%2F", "a%00b", "%00",
            "caf%C3%A9", "%FF%FE", "UP_per", "-lead", "trail-", "a%20b", "a%5Cb", "a..b", ".",
            "x".repeat(254 + r.nextInt(4_000)), "%E2%80%AE" + "rtl", "a%0D%0Ab", "%u002e");
        String[] segments = {"WebApp", "default", name(r)};
        segments[r.nextInt(3)] = r.nextBoolean() ? bad : bad.toLowerCase(java.util.Locale.ROOT) + "%2F" + bad;
        String path = "/api/v1/resources/" + String.join("/", segments);
        if (bad.equals(".") || bad.contains("..")) {
            // Dot segments are resolved before routing; what follows keeps the result off every valid route.
            path += "/ZZ/zz";
        }
        String method = pick(r, "GET", "GET", "PUT", "DELETE", "PATCH");
        if (r.nextInt(6) == 0) {
            path = "/api/v1/kinds/" + bad;
            method = pick(r, "GET", "PUT");
        } else if (r.nextInt(5) == 0) {
            path += pick(r, "/diff", "/diagnosis", "/extra/segments");
        }
        String ct = method.equals("PATCH") ? "application/merge-patch+json" : JSON;
        return request("path-injection", method, path, method.equals("GET") || method.equals("DELETE") ? null : ct,
            method.equals("GET") || method.equals("DELETE") ? null : utf8("{\"spec\":{\"a\":1}}"));
    }

    /** A selector with a character no valid selector can hold, or a broken structure. */
    private Request badSelector(Random r) {
        String selector = switch (r.nextInt(3)) {
            case 0 -> pick(r, "a in (b", "a in b)", "a notin ((b))", "=b", "!=b", "a=b,", ",a", "a in ()x", "!",
                "a!=b!=c", "a=(b)", "a in (b,,c", "((a))", "a notin", "-a=b", "a/=b", "/a=b");
            case 1 -> {
                char poison = SELECTOR_POISON.charAt(r.nextInt(SELECTOR_POISON.length()));
                yield pick(r, "tier", "app", "a") + poison + pick(r, "=web", " in (x)", "", "!=y");
            }
            default -> "k" + "x".repeat(64 + r.nextInt(300)) + "=v";
        };
        String path = r.nextBoolean() ? "/api/v1/resources" : "/api/v1/watch";
        return request("bad-selector", "GET", path + "?labelSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8), null, null);
    }

    private Request badWatchPosition(Random r) {
        String token = switch (r.nextInt(6)) {
            case 0 -> randomAscii(r, 1 + r.nextInt(200));
            case 1 -> b64(randomBytes(r, 1 + r.nextInt(200)));
            case 2 -> b64(utf8(pick(r, "{\"v\":2,\"o\":[0]}", "{\"v\":1}", "{\"v\":1,\"o\":\"0\"}", "{\"v\":1,\"o\":[-1,0,0]}",
                "{\"v\":1,\"o\":[\"a\",0,0]}", "{\"v\":1,\"o\":[99999999999999999999,0,0]}", "[]", "null")));
            // The child has 3 partitions: 4 or more, or 1 or 2, is another partition count (410), never a valid position.
            case 3 -> b64(utf8("{\"v\":1,\"o\":[" + "0,".repeat(3 + r.nextInt(2_000)) + "0]}"));
            case 4 -> b64(utf8("{\"v\":1,\"o\":[" + "0,".repeat(r.nextInt(2)) + "0]}"));
            default -> "%" + pick(r, "zz", "00", "FF", "");
        };
        if (r.nextInt(3) == 0) {
            return request("bad-continue", "GET", "/api/v1/resources?limit=1&continue=" + token, null, null);
        }
        return request("bad-watch-position", "GET", "/api/v1/watch?timeoutSeconds=5&resourceVersion=" + token, null, null);
    }

    private Request badQuery(Random r) {
        String q = pick(r, "limit=0", "limit=-1", "limit=abc", "limit=99999999999", "limit=1e3", "limit=5001", "limit=%00",
            "syncStatus=Bogus", "syncStatus=synced%20", "continue=%%%", "limit=x&limit=1");
        if (r.nextInt(4) == 0) {
            return request("bad-query", "GET", "/api/v1/watch?timeoutSeconds=" + pick(r, "abc", "1.5", "9999999999999999999999", "%00"), null, null);
        }
        return request("bad-query", "GET", "/api/v1/resources?" + q, null, null);
    }

    private Request wrongMethod(Random r) {
        String target = pick(r, "/api/v1/resources", "/api/v1/watch", "/healthz", "/readyz", "/metrics", "/openapi.json",
            "/api/v1/kinds", "/api/v1/kinds/WebApp", RES + name(r) + "/diff", RES + name(r) + "/diagnosis", RES + name(r));
        String method = pick(r, "POST", "PUT", "DELETE", "PATCH");
        if (target.startsWith(RES) && target.indexOf('/', RES.length()) < 0 || target.equals("/api/v1/kinds/WebApp")) {
            method = target.equals("/api/v1/kinds/WebApp") ? pick(r, "POST", "DELETE", "PATCH") : "POST";
        }
        return request("wrong-method", method, target, JSON, utf8("{\"spec\":{}}"));
    }

    private Request wrongContentType(Random r) {
        String ct = pick(r, "text/plain", "application/xml", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
            "application/json-patch+json", "application/jsonx", "text/json", "*/*", "", "application/merge-patch+json");
        boolean patch = r.nextInt(3) == 0;
        if (patch) {
            ct = ct.equals("application/merge-patch+json") ? JSON : ct;
        }
        String target = r.nextInt(5) == 0 ? "/api/v1/kinds/WebApp" : RES + name(r);
        String method = patch && target.startsWith(RES) ? "PATCH" : "PUT";
        if (method.equals("PUT") && (ct.equals("application/merge-patch+json") || ct.equals(JSON))) {
            ct = "text/plain";
        }
        return request("wrong-content-type", method, target, ct.isEmpty() ? null : ct, utf8("{\"spec\":{\"a\":1}}"));
    }

    private Request badAuth(Random r) {
        Request base = request("bad-auth", pick(r, "GET", "PUT", "DELETE"), RES + name(r), JSON, utf8("{\"spec\":{\"a\":1}}"));
        switch (r.nextInt(5)) {
            case 0 -> base.headers().remove("Authorization");
            case 1 -> base.headers().put("Authorization", "Bearer " + randomAscii(r, 1 + r.nextInt(64)));
            case 2 -> base.headers().put("Authorization", pick(r, "Basic dXNlcjpwYXNz", "Bearer", "bearer", "Token x", ""));
            case 3 -> base.headers().put("Authorization", "Bearer " + writerToken + "x");
            default -> {
                base.headers().put("Authorization", "Bearer " + readerToken);
                return new Request(base.category(), pick(r, "PUT", "DELETE"), base.target(), base.headers(), base.body(), -1);
            }
        }
        return base;
    }

    private Request badHeaders(Random r) {
        Request base = request("bad-headers", "PUT", RES + name(r), JSON, utf8("{\"spec\":{\"a\":1}}"));
        switch (r.nextInt(5)) {
            case 0, 1 -> base.headers().put("X-Big", "x".repeat(10_000 + r.nextInt(50_000)));
            case 2, 3 -> {
                for (int i = 0; i < 200 + r.nextInt(500); i++) {
                    base.headers().put("X-Many-" + i, "y".repeat(64));
                }
            }
            default -> base.headers().put("If-Match", "\"" + randomAscii(r, 1 + r.nextInt(40)) + "\"");
        }
        return base;
    }

    /**
     * A write to the Kubernetes API whose body is not JSON, or not an object of the collection's kind. Duplicate keys
     * and trailing tokens are left to the API's own strict-parsing tests, so that every body here is invalid however
     * the parser treats those.
     */
    private Request kubeBadBody(Random r) {
        String name = name(r);
        String valid = "{\"apiVersion\":\"statesync.io/v1\",\"kind\":\"WebApp\",\"metadata\":{\"name\":\"" + name
            + "\"},\"spec\":{\"replicas\":3}}";
        int shape = r.nextInt(8);
        byte[] body = switch (shape) {
            case 0 -> utf8(valid.substring(0, 1 + r.nextInt(valid.length() - 2)));
            case 1 -> randomBytes(r, 1 + r.nextInt(2_000));
            case 2 -> utf8("[".repeat(2_000 + r.nextInt(30_000)));
            case 3 -> utf8("{\"spec\":" + "{\"a\":".repeat(1_500 + r.nextInt(3_000)));
            case 4 -> concat(utf8("{\"metadata\":{\"name\":\""), new byte[] {(byte) 0xff, (byte) 0xc0}, utf8("\"}}"));
            case 5 -> utf8(pick(r, "[]", "42", "null", "\"x\"", "{\"metadata\":[]}", "{\"metadata\":{\"labels\":[\"a\"]}}"));
            case 6 -> utf8(valid.replace("\"kind\":\"WebApp\"", "\"kind\":\"Other\""));
            default -> utf8(valid.replace("\"name\":\"" + name + "\"", "\"name\":\"someone-else\""));
        };
        // Another name than the path's is only wrong where the path names the object: a POST would create it.
        return switch (shape == 7 ? 1 + r.nextInt(2) : r.nextInt(3)) {
            case 0 -> request("kube-bad-body", "POST", KUBE, JSON, body);
            case 1 -> request("kube-bad-body", "PATCH", KUBE + "/" + name, "application/merge-patch+json", body);
            default -> request("kube-bad-body", "PUT", KUBE + "/" + name, JSON, body);
        };
    }

    /** A Kubernetes API request with a bad path, query, method, content type or token, on /apis or /api. */
    private Request kubeBadRequest(Random r) {
        String target = switch (r.nextInt(4)) {
            case 0 -> "/apis/statesync.io/v1/namespaces/" + pick(r, "%00", "a%2Fb", "UP", "x".repeat(300)) + "/webapps/" + name(r);
            case 1 -> KUBE + "/" + pick(r, "a%00b", "%2F", "a%2Fb", "UP_per", "x".repeat(254 + r.nextInt(2_000)));
            // No watch with a bad resourceVersion: as in Kubernetes it is a 200 whose one event is an Expired Status.
            case 2 -> KUBE + "?" + pick(r, "limit=abc", "limit=1e3", "continue=%%%", "continue=.not-a-token", "labelSelector=a%40b",
                "labelSelector=a+in+(b");
            default -> pick(r, "/api/v1/namespaces/%00/events", "/apis/statesync.io/v1/nothings", "/apis/statesync.io/v1/namespaces/"
                + "default/nothings/x", "/apis/events.k8s.io/v1/nothings");
        };
        Request base = switch (r.nextInt(4)) {
            case 0 -> request("kube-bad-request", "GET", target, null, null);
            case 1 -> request("kube-bad-request", pick(r, "POST", "PUT", "PATCH", "DELETE"), pick(r, "/api", "/apis", "/version",
                "/apis/statesync.io", "/apis/statesync.io/v1"), JSON, utf8("{}"));
            case 2 -> request("kube-bad-request", "PATCH", KUBE + "/" + name(r), pick(r, "text/plain", "application/xml",
                "application/strategic-merge-patch+json+x", "application/yaml"), utf8("{\"spec\":{}}"));
            // A request that would be valid with a token: it must fail on the token alone.
            default -> withoutValidToken(r, request("kube-bad-auth", pick(r, "GET", "PUT", "DELETE"), KUBE + "/" + name(r), JSON,
                utf8("{\"apiVersion\":\"statesync.io/v1\",\"kind\":\"WebApp\",\"spec\":{}}")));
        };
        return r.nextInt(4) == 0 ? withoutValidToken(r, base) : base;
    }

    /** The same request without a valid token, or with the reader's on a write: 401 or 403 whatever else it holds. */
    private Request withoutValidToken(Random r, Request base) {
        switch (r.nextInt(3)) {
            case 0 -> base.headers().remove("Authorization");
            case 1 -> base.headers().put("Authorization", "Bearer " + randomAscii(r, 1 + r.nextInt(64)));
            default -> {
                if (base.method().equals("GET")) {
                    base.headers().remove("Authorization");
                } else {
                    base.headers().put("Authorization", "Bearer " + readerToken);
                }
            }
        }
        return base;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** URL-safe ASCII that is not a valid position token by construction (it contains '.'). */
    private static String randomAscii(Random r, int n) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
        StringBuilder sb = new StringBuilder(".");
        for (int i = 0; i < n; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static String b64(byte[] b) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
