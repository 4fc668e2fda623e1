package io.statesync.kubernetes;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields Kubernetes' typed model did not know. fabric8's model classes keep every property they have no field
 * for in an {@code additionalProperties} map instead of failing, so a misspelt or misplaced key (a probe under the
 * pod instead of the container, {@code periodSecond}) parses quietly; this walks the parsed object and names each.
 */
final class UnknownFields {

    private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";

    private UnknownFields() {
    }

    /** Paths such as {@code spec.template.spec.containers[0].periodSecond}, one per unknown field. */
    static List<String> of(Object model) {
        List<String> out = new ArrayList<>();
        walk(model, "", out, new IdentityHashMap<>());
        return out;
    }

    private static void walk(Object value, String path, List<String> out, Map<Object, Boolean> seen) {
        if (value == null || seen.put(value, Boolean.TRUE) != null) {
            return;
        }
        if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                walk(item, path + "[" + i++ + "]", out, seen);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, path + "[" + k + "]", out, seen));
        } else if (value.getClass().getName().startsWith(MODEL_PACKAGE)) {
            walkModel(value, path, out, seen);
        }
    }

    private static void walkModel(Object model, String path, List<String> out, Map<Object, Boolean> seen) {
        for (Class<?> type = model.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                Object value = read(field, model);
                if ("additionalProperties".equals(field.getName()) && value instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(k -> out.add(join(path, k.toString())));
                } else {
                    walk(value, join(path, field.getName()), out, seen);
                }
            }
        }
    }

    private static Object read(Field field, Object model) {
        try {
            field.setAccessible(true);
            return field.get(model);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field, e);
        }
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
