package io.statesync.kubernetes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.statesync.config.AppConfig;

/**
 * The environment the statesync container of a rendered overlay starts with, as Kubernetes builds it: the image's ENV,
 * then the ConfigMaps of {@code envFrom}, then {@code env} with {@code $(VAR)} expanded. A value from a Secret stands
 * as {@code secret:<name>/<key>}; the pod's name is the StatefulSet's first pod.
 */
record InstanceEnvironment(JsonNode statefulSet, JsonNode container, Map<String, String> env) {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    static InstanceEnvironment of(RenderedOverlay overlay) {
        ImageSpec image = ImageSpec.ofRepository();
        JsonNode sts = overlay.only("StatefulSet");
        JsonNode container = sts.path("spec").path("template").path("spec").path("containers").get(0);
        Map<String, String> env = new LinkedHashMap<>(image.env());
        for (JsonNode from : container.path("envFrom")) {
            JsonNode data = overlay.named("ConfigMap", from.path("configMapRef").path("name").asText()).path("data");
            data.properties().forEach(e -> env.put(e.getKey(), e.getValue().asText()));
        }
        for (JsonNode variable : container.path("env")) {
            env.put(variable.path("name").asText(), variable.has("value")
                ? expand(variable.path("value").asText(), env) : fromSource(variable.path("valueFrom"), sts));
        }
        return new InstanceEnvironment(sts, container, env);
    }

    /** The configuration the instance loads: {@code STATESYNC_*} variables only (no properties file is passed). */
    AppConfig config() {
        return AppConfig.load(null, env, Map.of());
    }

    String namespace() {
        return statefulSet.path("metadata").path("namespace").asText("default");
    }

    String podName(int ordinal) {
        return statefulSet.path("metadata").path("name").asText() + "-" + ordinal;
    }

    private static String expand(String value, Map<String, String> env) {
        Matcher m = REFERENCE.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(env.getOrDefault(m.group(1), m.group())));
        }
        return m.appendTail(out).toString();
    }

    private static String fromSource(JsonNode valueFrom, JsonNode sts) {
        JsonNode secret = valueFrom.path("secretKeyRef");
        if (!secret.isMissingNode()) {
            return "secret:" + secret.path("name").asText() + "/" + secret.path("key").asText();
        }
        return switch (valueFrom.path("fieldRef").path("fieldPath").asText()) {
            case "metadata.name" -> sts.path("metadata").path("name").asText() + "-0";
            case "metadata.namespace" -> sts.path("metadata").path("namespace").asText("default");
            default -> throw new AssertionError("an env source this test does not model: " + valueFrom);
        };
    }
}
