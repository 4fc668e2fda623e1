package io.statesync.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/**
 * {@code statesync kubeconfig [--server URL] [--token T]}: prints a kubeconfig for the instance's Kubernetes API, so
 * that {@code kubectl --kubeconfig FILE get webapps} works against statesync. Cluster, user and context are named
 * {@code statesync}, the namespace is {@code default}; nothing is contacted.
 */
@Command(name = "kubeconfig", mixinStandardHelpOptions = true,
    description = "Print a kubeconfig for kubectl and Kubernetes clients against this instance's Kubernetes API.")
public final class KubeconfigCommand implements Callable<Integer> {

    @Mixin
    ServerOptions target;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(kubeconfig(target.server, target.token));
        spec.commandLine().getOut().flush();
        return StatesyncCli.EXIT_OK;
    }

    /** The kubeconfig text; {@code token} may be null. Values are quoted as YAML strings. */
    public static String kubeconfig(String server, String token) {
        String user = token == null || token.isEmpty() ? "  user: {}\n" : "  user:\n    token: " + quote(token) + "\n";
        return "apiVersion: v1\n"
            + "kind: Config\n"
            + "clusters:\n"
            + "- name: statesync\n"
            + "  cluster:\n"
            + "    server: " + quote(server.endsWith("/") ? server.substring(0, server.length() - 1) : server) + "\n"
            + "users:\n"
            + "- name: statesync\n"
            + user
            + "contexts:\n"
            + "- name: statesync\n"
            + "  context:\n"
            + "    cluster: statesync\n"
            + "    user: statesync\n"
            + "    namespace: default\n"
            + "current-context: statesync\n";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
