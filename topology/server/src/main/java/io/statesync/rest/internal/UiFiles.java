package io.statesync.rest.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.javalin.http.Context;
import io.statesync.rest.ApiError;

/**
 * The web UI's static files, served from the class-path folder {@value #FOLDER} when a module puts it there (the
 * distribution does, through {@code topology/ui}); without it the UI paths answer 404 and the API is unchanged.
 *
 * <p>Only flat file names with a known extension are looked up, so no request can reach another class-path
 * resource. The files carry no data and are the same for everyone, so they are served without a token; every
 * API call the page makes carries its own.
 */
public final class UiFiles {

    public static final String FOLDER = "statesync-ui";
    private static final Pattern FILE = Pattern.compile("[a-z0-9][a-z0-9-]*\\.(html|js|css|svg|png)");
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
        "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml", "png", "image/png");
    /** Everything the page loads comes from this server; nothing inline, nothing from elsewhere, no framing. */
    private static final String POLICY = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        + "form-action 'self'; frame-ancestors 'none'";

    private final ClassLoader loader;
    private final Map<String, Optional<byte[]>> cache = new ConcurrentHashMap<>();

    public UiFiles(ClassLoader loader) {
        this.loader = loader;
    }

    /** True for the paths this class answers, which need no token: {@code /}, {@code /ui} and {@code /ui/<file>}. */
    public static boolean isUiPath(String path) {
        return path.equals("/") || path.equals("/ui") || path.equals("/ui/")
            || path.startsWith("/ui/") && FILE.matcher(path.substring(4)).matches();
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
        if (!FILE.matcher(name).matches()) {
            throw ApiError.notFound("no UI file " + name);
        }
        byte[] bytes = cache.computeIfAbsent(name, this::load)
            .orElseThrow(() -> ApiError.notFound("no UI file " + name + " (the UI is not on this instance's class path)"));
        ctx.header("Content-Security-Policy", POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        // Revalidated on every load, so a page never mixes modules of two versions after an upgrade.
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(TYPES.get(name.substring(name.lastIndexOf('.') + 1)));
        ctx.result(bytes);
    }

    private Optional<byte[]> load(String name) {
        try (InputStream in = loader.getResourceAsStream(FOLDER + "/" + name)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read UI file " + name, e);
        }
    }
}
