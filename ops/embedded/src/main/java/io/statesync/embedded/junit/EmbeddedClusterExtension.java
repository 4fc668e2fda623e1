package io.statesync.embedded.junit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives integration tests a real broker and a real schema registry: ONE of each per test JVM, shared by every test
 * class that uses the extension and stopped when the JVM's tests are done.
 *
 * <pre>
 * &#64;ExtendWith(EmbeddedClusterExtension.class)
 * class MyIT {
 *     &#64;Test
 *     void test(EmbeddedCluster cluster) {
 *         cluster.bootstrapServers(); cluster.registryUrl();
 *     }
 * }
 * </pre>
 *
 * Static fields and {@code @BeforeAll} methods can use {@link #bootstrapServers()} and {@link #registryUrl()}.
 *
 * <p>The broker runs in Docker via Testcontainers when an engine is reachable, else in this JVM; the system property
 * {@value #BROKER_PROPERTY} ({@code auto}, {@code testcontainers}, {@code in-process}) overrides the choice. The
 * registry always runs in a child JVM from the jar built by {@code ops/registry}.
 */
public final class EmbeddedClusterExtension implements BeforeAllCallback, ParameterResolver {
    public static final String BROKER_PROPERTY = "statesync.embedded.broker";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EmbeddedClusterExtension.class);
    private static volatile SharedCluster current;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == EmbeddedCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return cluster(context);
    }

    /** The shared cluster, started on first use in this test JVM. */
    public static EmbeddedCluster cluster(ExtensionContext context) {
        SharedCluster cluster = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(SharedCluster.class,
                type -> SharedCluster.start(System.getProperty(BROKER_PROPERTY, "auto")), SharedCluster.class);
        current = cluster;
        return cluster;
    }

    /** The running shared cluster; valid after the extension's {@code beforeAll} ran. */
    public static EmbeddedCluster cluster() {
        SharedCluster cluster = current;
        if (cluster == null) {
            throw new IllegalStateException("No embedded cluster: annotate the test class with "
                    + "@ExtendWith(EmbeddedClusterExtension.class) or register the extension");
        }
        return cluster;
    }

    static void forget(SharedCluster closed) {
        if (current == closed) {
            current = null;
        }
    }

    public static String bootstrapServers() {
        return cluster().bootstrapServers();
    }

    public static String registryUrl() {
        return cluster().registryUrl();
    }
}
