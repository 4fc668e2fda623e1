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
        byte[] bytes = ctx.bodyAsBytes();
        if (bytes.length > maxBytes) {
            throw ApiError.tooLarge("the body has " + bytes.length + " bytes; the limit is " + maxBytes);
        }
        if (bytes.length == 0) {
            throw ApiError.badRequest("the body is empty");
        }
        return parse(bytes);
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
