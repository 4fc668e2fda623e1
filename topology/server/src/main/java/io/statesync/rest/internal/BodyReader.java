package io.statesync.rest.internal;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.javalin.http.Context;
import io.statesync.rest.ApiError;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads request bodies with the size limit and turns a malformed body into a 400 with the parser's reason. A whole
 * object may come as JSON or, as the Kubernetes API server accepts it, as YAML read into the same tree.
 */
public final class BodyReader {

    private static final String JSON_TYPE = "application/json";
    private static final String[] DOCUMENT_TYPES = {JSON_TYPE, "application/yaml", "application/x-yaml"};

    private static final ObjectMapper STRICT = strict(new ObjectMapper());
    private static final ObjectMapper YAML = strict(new YAMLMapper());

    private BodyReader() {
    }

    private static ObjectMapper strict(ObjectMapper mapper) {
        return mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
    }

    /** A whole object to write: JSON or YAML by its Content-Type (415 for any other), within the same size limit. */
    static JsonNode document(Context ctx, int maxBytes) {
        String type = Requests.requireContentType(ctx, DOCUMENT_TYPES);
        return type.equals(JSON_TYPE) ? json(ctx, maxBytes) : yaml(bounded(ctx, maxBytes));
    }

    /** A server-side apply's configuration: YAML, of which JSON is a part, within the same size limit. */
    static JsonNode applyDocument(Context ctx, int maxBytes) {
        return yaml(bounded(ctx, maxBytes));
    }

    /** As {@link #applyDocument(Context, int)} for a body read within the server's request size limit. */
    public static JsonNode applyDocument(byte[] body) {
        if (body.length == 0) {
            throw ApiError.badRequest("the body is empty");
        }
        return yaml(body);
    }

    /** The body as JSON; 413 past {@code maxBytes} (checked before reading when the length is declared). */
    static JsonNode json(Context ctx, int maxBytes) {
        return parse(bounded(ctx, maxBytes));
    }

    private static byte[] bounded(Context ctx, int maxBytes) {
        if (ctx.contentLength() > maxBytes) {
            throw ApiError.tooLarge("the body has " + ctx.contentLength() + " bytes; the limit is " + maxBytes);
        }
        byte[] bytes = readAtMost(ctx, maxBytes);
        if (bytes.length == 0) {
            throw ApiError.badRequest("the body is empty");
        }
        return bytes;
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

    /**
     * One YAML document as the JSON tree the JSON path would build. Anchors and aliases are refused rather than
     * expanded: the parser would otherwise read an alias as the anchor's name, a different object from the one meant.
     */
    static JsonNode yaml(byte[] bytes) {
        try {
            requirePlainDocument(bytes);
            JsonNode n = YAML.readTree(bytes);
            if (n == null || n.isMissingNode()) {
                throw ApiError.badRequest("the body is empty");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("malformed YAML " + yamlProblem(e));
        } catch (IOException e) {
            throw ApiError.badRequest("unreadable body: " + e.getMessage());
        }
    }

    private static void requirePlainDocument(byte[] bytes) throws IOException {
        try (YAMLParser p = (YAMLParser) YAML.createParser(bytes)) {
            int depth = 0;
            boolean ended = false;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (ended) {
                    throw ApiError.badRequest("malformed YAML " + at(p) + ": a body holds one document");
                }
                if (p.isCurrentAlias() || p.getCurrentAnchor() != null) {
                    throw ApiError.badRequest("malformed YAML " + at(p) + ": anchors and aliases are not supported");
                }
                depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
                ended = depth == 0;
            }
        }
    }

    /** The line and column of the problem (the scanner's own mark when it has one) and what is wrong there. */
    private static String yamlProblem(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
            String context = m.getContext() == null ? "" : " (" + m.getContext() + ")";
            return "at line " + (m.getProblemMark().getLine() + 1) + ", column " + (m.getProblemMark().getColumn() + 1)
                + ": " + m.getProblem() + context;
        }
        return (e.getLocation() == null ? "" : "at line " + e.getLocation().getLineNr() + ", column "
            + e.getLocation().getColumnNr()) + ": " + e.getOriginalMessage();
    }

    private static String at(JsonParser p) {
        return "at line " + p.currentTokenLocation().getLineNr() + ", column " + p.currentTokenLocation().getColumnNr();
    }
}
