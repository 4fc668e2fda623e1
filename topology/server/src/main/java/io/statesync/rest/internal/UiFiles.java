package io.statesync.rest.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;

/**
 * The web UI's static files, served from the class-path folder {@value #FOLDER} when a module puts it there (the
 * distribution does, through {@code topology/ui}); without it the UI paths answer 404 and the API is unchanged.
 *
 * <p>The folder is read once, when the server starts: the files the module ships are a fixed set, so a request for
 * any other name is a 404 that looks nothing up and keeps nothing. These paths need no token, and anything they
 * remembered per name would be heap that an anonymous client could fill.
 *
 * <p>Only flat file names with a known extension are served, so no request can reach another class-path resource.
 * The files carry no data and are the same for everyone; every API call the page makes carries its own token.
 */
public final class UiFiles {

    public static final String FOLDER = "statesync-ui";
    private static final Pattern FILE = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(html|js|css|svg|png)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
        "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png");
    /** Everything the page loads comes from this server; nothing inline, nothing from elsewhere, no framing. */
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        + "form-action 'self'; frame-ancestors 'none'";
    /** Shared by every miss: a 404 for a name nobody ships must not build a message out of that name. */
    private static final String NOT_SHIPPED = "no such UI file";

    private final Map<String, byte[]> files;

    /** Reads every servable file of {@link #FOLDER} that {@code loader} sees, once. */
    public UiFiles(ClassLoader loader) {
        this.files = Map.copyOf(load(loader));
    }

    /** True for the paths this class answers, which need no token: {@code /}, {@code /ui} and {@code /ui/<file>}. */
    public static boolean isUiPath(String path) {
        return path.equals("/") || path.equals("/ui") || path.equals("/ui/")
            || path.startsWith("/ui/") && FILE.matcher(path.substring(4)).matches();
    }

    /** The names this instance serves, for tests and the log. */
    public Set<String> names() {
        return files.keySet();
    }

    /** The shipped bytes of {@code name}, or null for any name the module does not ship. */
    byte[] bytesOf(String name) {
        return files.get(name);
    }

    /** {@code GET /} and {@code GET /ui/}: the page itself. */
    public void index(Context ctx) {
        send(ctx, "index.html");
    }

    /** {@code GET /ui/{file}}: one of the page's modules, its style sheet or an image. */
    public void file(Context ctx) {
        send(ctx, ctx.pathParam("file"));
    }

    private void send(Context ctx, String name) {
        byte[] bytes = bytesOf(name);
        if (bytes == null) {
            throw ApiError.notFound(NOT_SHIPPED);
        }
        ctx.header("Content-Security-Policy", POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        // Revalidated on every load, so a page never mixes modules of two versions after an upgrade.
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
        ctx.result(bytes);
    }

    /** The folder's files, whether it is a directory (a build's classes) or a jar's entries (the distribution). */
    private static Map<String, byte[]> load(ClassLoader loader) {
        Map<String, byte[]> out = new HashMap<>();
        try {
            for (Enumeration<URL> roots = loader.getResources(FOLDER); roots.hasMoreElements(); ) {
                URL root = roots.nextElement();
                if (root.getProtocol().equals("file")) {
                    loadDirectory(Path.of(root.toURI()), out);
                } else if (root.getProtocol().equals("jar")) {
                    loadJar(root, out);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the UI files in " + FOLDER, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot read the UI files in " + FOLDER + ": " + e.getMessage(), e);
        }
        return out;
    }

    private static void loadDirectory(Path dir, Map<String, byte[]> out) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (FILE.matcher(name).matches() && Files.isRegularFile(p)) {
                    out.putIfAbsent(name, Files.readAllBytes(p));
                }
            }
        }
    }

    private static void loadJar(URL root, Map<String, byte[]> out) throws IOException {
        JarURLConnection connection = (JarURLConnection) root.openConnection();
        connection.setUseCaches(false);
        try (JarFile jar = connection.getJarFile()) {
            String prefix = FOLDER + "/";
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                JarEntry e = entries.nextElement();
                String rest = e.getName().startsWith(prefix) ? e.getName().substring(prefix.length()) : "";
                if (!e.isDirectory() && FILE.matcher(rest).matches()) {
                    try (InputStream in = jar.getInputStream(e)) {
                        out.putIfAbsent(rest, in.readAllBytes());
                    }
                }
            }
        }
    }
}
