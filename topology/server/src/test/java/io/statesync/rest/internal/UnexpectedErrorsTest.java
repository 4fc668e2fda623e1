package io.statesync.rest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A failure no handler expected answers 500 with an error id only; the log line has the same id and the stack trace. */
class UnexpectedErrorsTest {

    @Test
    void shouldAnswer500WithAnErrorIdAndNoInternalsAndLogTheSameIdWithTheStackTrace() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(UnexpectedErrors.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        Javalin javalin = Javalin.create(cfg -> {
            cfg.startup.showJavalinBanner = false;
            cfg.startup.startupWatcherEnabled = false;
            cfg.routes.exception(Exception.class, (e, ctx) -> {
                ApiError a = UnexpectedErrors.answer(ctx, e);
                ctx.status(a.code()).json(a.body());
            });
            cfg.routes.get("/boom", ctx -> {
                throw new IllegalStateException("secret path /var/lib/statesync/keystore.p12");
            });
        });
        try {
            javalin.start("127.0.0.1", 0);
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + javalin.port() + "/boom")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).doesNotContain("IllegalStateException", "secret", "keystore", "java.");
            JsonNode body = new ObjectMapper().readTree(r.body());
            String errorId = body.path("errorId").asText();
            assertThat(errorId).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            assertThat(body.path("code").asInt()).isEqualTo(500);
            assertThat(body.path("reason").asText()).isEqualTo("InternalError");
            assertThat(body.path("message").asText()).contains(errorId);
            assertThat(logged.list).anySatisfy(event -> {
                assertThat(event.getFormattedMessage()).contains(errorId, "/boom");
                assertThat(event.getThrowableProxy().getClassName()).isEqualTo(IllegalStateException.class.getName());
                assertThat(event.getThrowableProxy().getMessage()).contains("secret path");
            });
        } finally {
            javalin.stop();
            logger.detachAppender(logged);
        }
    }
}
