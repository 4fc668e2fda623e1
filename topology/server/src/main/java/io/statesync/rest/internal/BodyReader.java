package io.statesync.rest.internal;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;

/** Reads request bodies with the size limit and turns malformed JSON into a 400 with the parser's reason. */
final class BodyReader {

    private static final ObjectMapper STRICT = new ObjectMapper()
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

    private BodyReader() {
    }

    /** The body as JSON; 413 past {@code maxBytes} (checked before reading when the length is declared). */
    static JsonNode json(Context ctx, int maxBytes) {
        if (ctx.contentLength() > maxBytes) {
            throw ApiError.tooLarge("the body has " + ctx.contentLength() + " bytes; the limit is " + maxBytes);
        }
        byte[] bytes = readAtMost(ctx, maxBytes);
        if (bytes.length == 0) {
            throw ApiError.badRequest("the body is empty");
        }
        return parse(bytes);
    }

    /**
     * Reads at most one byte past the limit: a chunked body declares no length, and Javalin's own body reader would
     * take all of it into memory before any check.
     */
    private static byte[] readAtMost(Context ctx, int maxBytes) {
        byte[] bytes;
        try {
            bytes = ctx.req().getInputStream().readNBytes(maxBytes + 1);
        } catch (IOException | RuntimeException e) {
            throw ApiError.badRequest("unreadable body: " + e.getMessage());
        }
        if (bytes.length > maxBytes) {
            throw ApiError.tooLarge("the body has more than " + maxBytes + " bytes, the limit");
        }
        return bytes;
    }

    static JsonNode parse(byte[] bytes) {
        try {
            JsonNode n = STRICT.readTree(bytes);
            if (n == null || n.isMissingNode()) {
                throw ApiError.badRequest("the body is empty");
            }
            return n;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ApiError.badRequest("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiError.badRequest("unreadable body: " + e.getMessage());
        }
    }
}
