package io.statesync.rest.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.rest.ApiError;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's own error answers (a request line or header it cannot parse, an ambiguous URI, a header block too large)
 * never reach Javalin; this handler gives them the API's {@code {"code","reason","message"}} body instead of
 * Jetty's HTML page, so clients parse every error the same way.
 */
public final class JsonErrorHandler extends ErrorHandler {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<Integer, String> REASONS = Map.of(400, "BadRequest", 404, "NotFound", 405, "MethodNotAllowed",
        413, "RequestEntityTooLarge", 414, "URITooLong", 415, "UnsupportedMediaType", 431, "RequestHeaderFieldsTooLarge",
        500, "InternalError", 501, "NotImplemented", 505, "HTTPVersionNotSupported");

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
        throws IOException {
        baseRequest.setHandled(true);
        Object message = request.getAttribute(RequestDispatcher.ERROR_MESSAGE);
        byte[] body = body(response.getStatus(), message == null ? null : message.toString());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** The answer to a request Jetty could not even parse. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json");
        return ByteBuffer.wrap(body(status, reason));
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
