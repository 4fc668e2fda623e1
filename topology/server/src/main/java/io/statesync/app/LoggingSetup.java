package io.statesync.app;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import io.statesync.config.AppConfig;
import io.statesync.server.ServerConfig;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code log.format} from the loaded configuration. Logback reads only system properties and the
 * environment when it starts, so a format set in the properties file or with {@code -D key=value} needs a reload.
 */
public final class LoggingSetup {

    static final String PROPERTY = "log.format";

    private LoggingSetup() {
    }

    public static void apply(AppConfig config) {
        String format = config.getString(ServerConfig.LOG_FORMAT);
        if (format.equals(System.getProperty(PROPERTY, "text"))) {
            return;
        }
        System.setProperty(PROPERTY, format);
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
            ctx.reset();
            try {
                new ContextInitializer(ctx).autoConfig();
            } catch (JoranException e) {
                throw new IllegalStateException("Cannot reload the logging configuration: " + e.getMessage(), e);
            }
        }
    }
}
