package io.statesync.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import net.logstash.logback.encoder.LogstashEncoder;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** The shipped logback.xml: text by default, JSON when asked, secrets masked in both. */
class LogbackConfigTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldLogTextLinesByDefault() throws Exception {
        assumeTrue(System.getenv("STATESYNC_LOG_FORMAT") == null && System.getProperty("log.format") == null,
            "the environment selects a log format");
        String out = render(null, "Starting statesync");
        assertThat(out).doesNotStartWith("{").contains(" INFO ").contains("io.statesync.test - Starting statesync");
    }

    @Test
    void shouldLogOneJsonObjectPerLineWhenFormatIsJson() throws Exception {
        String out = render("json", "Starting statesync");
        assertThat(out.lines()).hasSize(1);
        JsonNode line = JSON.readTree(out);
        assertThat(line.path("message").asText()).isEqualTo("Starting statesync");
        assertThat(line.path("level").asText()).isEqualTo("INFO");
        assertThat(line.path("logger_name").asText()).isEqualTo("io.statesync.test");
        assertThat(line.has("@timestamp")).isTrue();
        assertThat(line.has("level_value")).isFalse();
    }

    @Test
    void shouldPrintTheMdcInTextOnlyWhenThereIsOne() throws Exception {
        assertThat(render("text", "plain", Map.of())).contains("io.statesync.test - plain").doesNotContain("[]");
        assertThat(render("text", "reconciled", Map.of("key", "WebApp/default/shop")))
            .contains("io.statesync.test [key=WebApp/default/shop] - reconciled");
    }

    @Test
    void shouldPutTheMdcIntoJsonFields() throws Exception {
        JsonNode line = JSON.readTree(render("json", "reconciled", Map.of("key", "WebApp/default/shop", "attempt", "2")));
        assertThat(line.path("key").asText()).isEqualTo("WebApp/default/shop");
        assertThat(line.path("attempt").asText()).isEqualTo("2");
    }

    @Test
    void shouldBuildOnlyTheSelectedFormatsAppender() throws Exception {
        assertThat(rootEncoders("text")).containsExactly(PatternLayoutEncoder.class);
        assertThat(rootEncoders("yaml")).containsExactly(PatternLayoutEncoder.class);
        assertThat(rootEncoders("json")).containsExactly(LogstashEncoder.class);
    }

    @Test
    void shouldFallBackToTextForAnUnknownFormat() throws Exception {
        String out = render("yaml", "Starting statesync");
        assertThat(out).doesNotStartWith("{").contains("io.statesync.test - Starting statesync");
    }

    @Test
    void shouldMaskBearerTokensAndUrlPasswordsInTextAndJson() throws Exception {
        String message = "calling http://svc:s3cretpw@registry:8081/subjects with Authorization: Bearer tok-abc.123";
        for (String format : new String[] {"text", "json"}) {
            String out = render(format, message);
            assertThat(out).as(format).doesNotContain("s3cretpw").doesNotContain("tok-abc.123")
                .contains("http://svc:[hidden]@registry:8081/subjects").contains("Bearer [hidden]");
        }
    }

    @Test
    void shouldKeepHostPortsThatCarryNoCredentials() throws Exception {
        String out = render("text", "REST listening on http://127.0.0.1:8080 and metrics at http://127.0.0.1:8080/metrics");
        assertThat(out).contains("http://127.0.0.1:8080 and metrics at http://127.0.0.1:8080/metrics");
    }

    /** The encoder classes of the root logger's appenders, as the main logback.xml configures them for {@code format}. */
    private static List<Class<?>> rootEncoders(String format) throws Exception {
        LoggerContext context = configured(format);
        try {
            List<Class<?>> encoders = new ArrayList<>();
            context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders().forEachRemaining(appender ->
                encoders.add(((OutputStreamAppender<?>) appender).getEncoder().getClass()));
            return encoders;
        } finally {
            context.stop();
        }
    }

    private static LoggerContext configured(String format) throws Exception {
        URL config = LogbackConfigTest.class.getClassLoader().getResource("logback.xml");
        assertThat(config).as("logback.xml on the classpath").isNotNull();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        if (format != null) {
            context.putProperty("log.format", format);
        }
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(config);
        return context;
    }

    /** Configures a private LoggerContext from the main logback.xml and returns what one INFO line prints. */
    private static String render(String format, String message) throws Exception {
        return render(format, message, Map.of());
    }

    private static String render(String format, String message, Map<String, String> mdc) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        LoggerContext context = null;
        try {
            context = configured(format);
            mdc.forEach(context.getMDCAdapter()::put);
            context.getLogger("io.statesync.test").info(message);
        } finally {
            System.setOut(original);
            if (context != null) {
                context.stop();
            }
        }
        // A WARN would make Logback print its whole status at start-up, so the shipped config must have none.
        assertThat(new StatusUtil(context).getHighestLevel(0)).as("logback status: %s",
            context.getStatusManager().getCopyOfStatusList()).isLessThan(Status.WARN);
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
