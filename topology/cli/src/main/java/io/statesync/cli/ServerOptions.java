package io.statesync.cli;

import picocli.CommandLine.Option;

/** Where the instance is and how to authenticate: {@code --server} and {@code --token}, shared by every command that names an instance. */
final class ServerOptions {

    @Option(names = "--server", defaultValue = "${env:STATESYNC_SERVER:-http://127.0.0.1:8080}",
        description = "REST base URL (default ${DEFAULT-VALUE}; env STATESYNC_SERVER).")
    String server;

    @Option(names = "--token", defaultValue = "${env:STATESYNC_TOKEN}",
        description = "Bearer token (env STATESYNC_TOKEN); none for an open loopback instance.")
    String token;
}
