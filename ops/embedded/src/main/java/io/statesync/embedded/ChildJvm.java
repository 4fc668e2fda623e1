package io.statesync.embedded;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;

import io.statesync.embedded.internal.ParentWatchdog;

/** Builds the command line of a child JVM that runs a main class under {@link ParentWatchdog}. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** The current JVM's {@code java} executable, so the child runs on the same Java as its parent. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * {@code java <jvmOptions> -cp <classPath> ParentWatchdog <this pid> <mainClass> <args>}.
     *
     * @param classPath the child's class path; the location of this class is appended so the watchdog can load
     */
    public static List<String> command(List<String> jvmOptions, String classPath, String mainClass, List<String> args) {
        return command(jvmOptions, classPath, ProcessHandle.current().pid(), mainClass, args);
    }

    /** The same for a child that exits when the process {@code parentPid}, not this JVM, dies. */
    public static List<String> command(List<String> jvmOptions, String classPath, long parentPid, String mainClass,
            List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath + java.io.File.pathSeparator + ownLocation());
        command.add(ParentWatchdog.class.getName());
        command.add(Long.toString(parentPid));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /** {@code defaults} followed by the space-separated options in system property {@code property}, if any. */
    public static List<String> options(List<String> defaults, String property) {
        List<String> options = new ArrayList<>(defaults);
        String extra = System.getProperty(property, "").trim();
        if (!extra.isEmpty()) {
            options.addAll(List.of(extra.split("\\s+")));
        }
        return options;
    }

    /** The current JVM's class path, which holds the broker's classes wherever statesync-embedded is used. */
    public static String currentClassPath() {
        return System.getProperty("java.class.path");
    }

    private static String ownLocation() {
        CodeSource source = ParentWatchdog.class.getProtectionDomain().getCodeSource();
        try {
            return Path.of(source.getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the statesync-embedded classes at " + source.getLocation(), e);
        }
    }
}
