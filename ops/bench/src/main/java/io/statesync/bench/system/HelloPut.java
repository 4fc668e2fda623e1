package io.statesync.bench.system;

import io.javalin.Javalin;

/**
 * The HTTP baseline of the REST writes suite: a Javalin server in this process that answers a PUT of a resource path
 * with a small JSON as a write's answer looks, reading the body but touching no Kafka, so that the suite's write
 * latencies can be read against what HTTP alone costs on this machine.
 */
final class HelloPut {

    private HelloPut() {
    }

    static Javalin start() {
        return Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.startupWatcherEnabled = false;
            c.routes.put("/api/v1/resources/{kind}/{namespace}/{name}", ctx -> {
                ctx.bodyAsBytes();
                ctx.contentType("application/json").result("{\"kind\":\"" + ctx.pathParam("kind") + "\",\"metadata\":{\"name\":\""
                    + ctx.pathParam("name") + "\",\"resourceVersion\":\"1\"}}");
            });
        }).start("127.0.0.1", 0);
    }
}
