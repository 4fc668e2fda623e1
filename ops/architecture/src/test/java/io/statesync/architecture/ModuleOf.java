package io.statesync.architecture;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;

/**
 * The Maven module a class was loaded from, read off its class-path location: a module's jar
 * ({@code statesync-engine-0.1.0-SNAPSHOT.jar}) or, in a reactor build, its {@code target/classes} folder
 * ({@code topology/engine/target/classes}). Either way the name is the artifact's without {@code statesync-}.
 */
final class ModuleOf {

    private static final Pattern JAR = Pattern.compile("/statesync-([a-z-]+?)-\\d[^/]*\\.jar!");
    private static final Pattern CLASSES = Pattern.compile("/([a-z-]+)/target/classes/");

    private ModuleOf() {
    }

    static String of(JavaClass c) {
        String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
        Matcher jar = JAR.matcher(uri);
        if (jar.find()) {
            return jar.group(1);
        }
        Matcher dir = CLASSES.matcher(uri);
        if (dir.find()) {
            return "registry".equals(dir.group(1)) ? "registry-app" : dir.group(1);
        }
        return "unknown:" + uri;
    }

    /** {@code io.statesync.topology.internal} is in the tree {@code topology}; the generated schema is in {@code avro}. */
    static String treeOf(String packageName) {
        String rest = packageName.startsWith("io.statesync.") ? packageName.substring("io.statesync.".length()) : "";
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    static boolean isInternal(String packageName) {
        return packageName.endsWith(".internal") || packageName.contains(".internal.");
    }
}
