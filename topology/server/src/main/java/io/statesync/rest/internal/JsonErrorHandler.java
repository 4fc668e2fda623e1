package io.statesync.rest.internal;

import java.nio.ByteBuffer;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.rest.ApiError;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers (a request line or header it cannot parse, an ambiguous URI, a header block too large)
 * never reach Javalin; this handler gives them the API's {@code {"code","reason","message"}} body instead of
 * Jetty's HTML page, so clients parse every error the same way. One instance serves both the server (requests Jetty
 * could not parse) and the servlet context (errors raised past Javalin's servlet).
 */
public final class JsonErrorHandler extends ErrorHandler {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<Integer, String> REASONS = Map.of(400, "BadRequest", 404, "NotFound", 405, "MethodNotAllowed",
        413, "RequestEntityTooLarge", 414, "URITooLong", 415, "UnsupportedMediaType", 431, "RequestHeaderFieldsTooLarge",
        500, "InternalError", 501, "NotImplemented", 505, "HTTPVersionNotSupported");

    /** Unlike Jetty's, answers JSON whatever the Accept header asks for, and with the API's message, not the exception's. */
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        Object message = request.getAttribute(ERROR_MESSAGE);
        if (request.getAttribute(ERROR_EXCEPTION) instanceof HttpException e) {
            status = e.getCode();
            response.setStatus(status);
            if (message == null) {
                message = e.getReason();
            }
        }
        if (HttpStatus.hasNoBody(status)) {
            callback.succeeded();
            return true;
        }
        byte[] body = body(status, message == null ? null : message.toString());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    static byte[] body(int status, String message) {
        String reason = REASONS.getOrDefault(status, "HttpError");
        String text = message == null || message.isBlank() ? HttpStatus.getMessage(status) : message;
        try {
            return MAPPER.writeValueAsBytes(new ApiError(status, reason, text).body());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
