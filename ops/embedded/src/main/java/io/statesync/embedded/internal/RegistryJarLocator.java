package io.statesync.embedded.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Finds the Apicurio fast-jar built by {@code ops/registry}: an explicit system property or environment variable
 * first, then {@code ops/registry/target/quarkus-app/quarkus-run.jar} in the working directory or the repository root
 * (failsafe passes it as {@code statesync.repo.root}) or any of their parents.
 */
public final class RegistryJarLocator {
    public static final String JAR_PROPERTY = "statesync.registry.jar";
    public static final String JAR_ENV = "STATESYNC_REGISTRY_JAR";
    public static final String REPO_ROOT_PROPERTY = "statesync.repo.root";
    static final Path RELATIVE_JAR = Path.of("ops", "registry", "target", "quarkus-app", "quarkus-run.jar");

    private final Properties systemProperties;
    private final Map<String, String> env;

    public RegistryJarLocator(Properties systemProperties, Map<String, String> env) {
        this.systemProperties = systemProperties;
        this.env = env;
    }

    public static Path locate() {
        return new RegistryJarLocator(System.getProperties(), System.getenv()).find();
    }

    /** @throws IllegalStateException saying where it looked and how to build the jar */
    public Path find() {
        Optional<Path> explicit = explicitJar();
        if (explicit.isPresent()) {
            if (!Files.isRegularFile(explicit.get())) {
                throw new IllegalStateException("The Apicurio registry jar " + explicit.get() + " (from -D"
                        + JAR_PROPERTY + " or " + JAR_ENV + ") does not exist. " + howToBuild());
            }
            return explicit.get();
        }
        List<Path> tried = new ArrayList<>();
        for (Path start : searchRoots()) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(RELATIVE_JAR);
                if (Files.isRegularFile(candidate)) {
                    return candidate;
                }
                tried.add(candidate);
            }
        }
        throw new IllegalStateException("The Apicurio registry jar was not found; looked for " + tried + ". "
                + howToBuild());
    }

    private Optional<Path> explicitJar() {
        String value = systemProperties.getProperty(JAR_PROPERTY);
        if (value == null || value.isBlank()) {
            value = env.get(JAR_ENV);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(Path.of(value).toAbsolutePath());
    }

    private Set<Path> searchRoots() {
        Set<Path> roots = new LinkedHashSet<>();
        roots.add(Path.of(systemProperties.getProperty("user.dir", ".")).toAbsolutePath().normalize());
        String repoRoot = systemProperties.getProperty(REPO_ROOT_PROPERTY);
        if (repoRoot != null && !repoRoot.isBlank()) {
            roots.add(Path.of(repoRoot).toAbsolutePath().normalize());
        }
        return roots;
    }

    private static String howToBuild() {
        return "Build it from the repository root with `mvn -B -q package -f ops/registry/pom.xml` "
                + "(or any `mvn install` of the whole project), or point -D" + JAR_PROPERTY + " / " + JAR_ENV
                + " at target/quarkus-app/quarkus-run.jar.";
    }
}
