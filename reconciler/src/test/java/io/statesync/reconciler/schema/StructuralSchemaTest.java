package io.statesync.reconciler.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.statesync.reconciler.fields.ListShape;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class StructuralSchemaTest {

    /** The Widget schema of the Kubernetes API's tests, as a tree. */
    static final Map<String, Object> WIDGET = Map.of("type", "object", "properties", Map.of(
        "spec", Map.of("type", "object", "required", List.of("size"),
            "x-kubernetes-validations", List.of(Map.of("rule", "!has(self.size) || self.size != 'large' || !has(self.replicas) || self.replicas <= 3",
                "message", "a large widget has at most 3 replicas")),
            "properties", Map.of(
                "size", Map.of("type", "string", "enum", List.of("small", "large")),
                "color", Map.of("type", "string", "maxLength", 10, "default", "blue"),
                "replicas", Map.of("type", "integer", "minimum", 1, "maximum", 5),
                "name", Map.of("type", "string", "pattern", "^[a-z]+$", "minLength", 2),
                "when", Map.of("type", "string", "format", "date-time"),
                "ports", Map.of("type", "array", "maxItems", 2, "x-kubernetes-list-type", "map",
                    "x-kubernetes-list-map-keys", List.of("port"),
                    "items", Map.of("type", "object", "properties", Map.of("port", Map.of("type", "integer"),
                        "protocol", Map.of("type", "string", "default", "TCP")))),
                "tags", Map.of("type", "array", "x-kubernetes-list-type", "set", "items", Map.of("type", "string")),
                "extra", Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true)))));

    private static StructuralSchema widget() throws InvalidSchemaException {
        return StructuralSchema.compile(WIDGET, "spec.versions[0].schema.openAPIV3Schema", StructuralSchema.Limits.DEFAULTS);
    }

    private static Map<String, Object> object(Map<String, Object> spec) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("apiVersion", "example.com/v1");
        o.put("kind", "Widget");
        o.put("metadata", Map.of("name", "w"));
        o.put("spec", deepMutable(spec));
        return o;
    }

    @SuppressWarnings("unchecked")
    private static Object deepMutable(Object o) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put((String) k, deepMutable(v)));
            return out;
        }
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(deepMutable(v)));
            return out;
        }
        return o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(StructuralSchema.Admission a) {
        return (Map<String, Object>) a.object().get("spec");
    }

    @Test
    void shouldApplyDefaultsAndPruneUnknownFieldsButKeepPreservedOnes() throws Exception {
        StructuralSchema.Admission a = widget().admit(object(Map.of("size", "small", "unknown", 1,
            "extra", Map.of("anything", Map.of("x", 1)), "ports", List.of(Map.of("port", 80L)))), null);

        assertThat(a.errors()).isEmpty();
        assertThat(spec(a)).containsEntry("color", "blue").doesNotContainKey("unknown");
        assertThat(spec(a).get("extra")).isEqualTo(Map.of("anything", Map.of("x", 1)));
        assertThat(spec(a).get("ports")).isEqualTo(List.of(Map.of("port", 80L, "protocol", "TCP")));
        assertThat(a.object()).containsKeys("apiVersion", "kind", "metadata");
    }

    @Test
    void shouldReportEachFieldAsTheApiserverWordsIt() throws Exception {
        StructuralSchema.Admission a = widget().admit(object(Map.of("color", "a-very-long-color", "replicas", 9L,
            "name", "X", "when", "yesterday", "tags", List.of("a", "a"),
            "ports", List.of(Map.of("port", 1L), Map.of("port", 1L), Map.of("port", 2L)))), null);

        assertThat(a.errors()).extracting(FieldError::toString).containsExactlyInAnyOrder(
            "spec.size: Required value",
            "spec.color: Too long: may not be longer than 10",
            "spec.replicas: Invalid value: 9: spec.replicas in body should be less than or equal to 5",
            "spec.name: Invalid value: \"X\": spec.name in body should be at least 2 chars long",
            "spec.name: Invalid value: \"X\": spec.name in body should match '^[a-z]+$'",
            "spec.when: Invalid value: \"yesterday\": spec.when in body must be of type date-time: \"yesterday\"",
            "spec.tags[1]: Duplicate value: \"a\"",
            "spec.ports: Too many: 3: must have at most 2 items",
            "spec.ports[1]: Duplicate value: {port=1}");
        assertThat(a.errors()).filteredOn(e -> e.field().equals("spec.size")).extracting(FieldError::reason)
            .containsExactly("FieldValueRequired");
    }

    @Test
    void shouldRefuseAWrongTypeAndAValueOutsideTheEnum() throws Exception {
        StructuralSchema.Admission a = widget().admit(object(Map.of("size", "huge", "replicas", "two")), null);

        assertThat(a.errors()).extracting(FieldError::toString).containsExactlyInAnyOrder(
            "spec.size: Unsupported value: \"huge\": supported values: \"small\", \"large\"",
            "spec.replicas: Invalid value: \"two\": spec.replicas in body must be of type integer: \"string\"");
    }

    @Test
    void shouldRunTheValidationRulesOfTheSchemaOnTheirNode() throws Exception {
        StructuralSchema.Admission a = widget().admit(object(Map.of("size", "large", "replicas", 4L)), null);

        assertThat(a.errors()).extracting(FieldError::toString)
            .containsExactly("spec: Invalid value: \"object\": a large widget has at most 3 replicas");
    }

    @Test
    void shouldGiveTheListTypesOfTheSchema() throws Exception {
        assertThat(widget().listShapes().at(List.of("spec", "ports"))).isEqualTo(ListShape.map("port"));
        assertThat(widget().listShapes().at(List.of("spec", "tags"))).isEqualTo(ListShape.SET);
        assertThat(widget().listShapes().at(List.of("spec", "other"))).isEqualTo(ListShape.ATOMIC);
    }

    @Test
    void shouldRefuseASchemaThatIsNotStructural() {
        Map<String, Object> bad = Map.of("type", "object", "properties", Map.of(
            "spec", Map.of("properties", Map.of("a", Map.of("type", "strin"))),
            "list", Map.of("type", "array", "uniqueItems", true, "items", Map.of("type", "string"))));

        assertThatThrownBy(() -> StructuralSchema.compile(bad, "s", StructuralSchema.Limits.DEFAULTS))
            .isInstanceOfSatisfying(InvalidSchemaException.class, e -> assertThat(e.errors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("s.properties[spec].type", "s.properties[spec].properties[a].type",
                    "s.properties[list].uniqueItems"));
    }

    @Test
    void shouldRefuseASchemaDeeperThanTheLimit() {
        Map<String, Object> deep = Map.of("type", "string");
        for (int i = 0; i < 10; i++) {
            deep = Map.of("type", "object", "properties", Map.of("a", deep));
        }
        Map<String, Object> schema = deep;

        assertThatThrownBy(() -> StructuralSchema.compile(schema, "s", new StructuralSchema.Limits(5, 100, 1_000, 1_000_000)))
            .isInstanceOf(InvalidSchemaException.class).hasMessageContaining("at most 100 nodes and 5 levels");
    }

    @Test
    void shouldFailACatastrophicPatternWithinItsBudgetInsteadOfHanging() throws Exception {
        StructuralSchema s = StructuralSchema.compile(Map.of("type", "object", "properties", Map.of("spec",
            Map.of("type", "object", "properties", Map.of("v", Map.of("type", "string", "pattern", "^(a+)+$"))))),
            "s", StructuralSchema.Limits.DEFAULTS);
        long start = System.nanoTime();
        StructuralSchema.Admission a = s.admit(object(Map.of("v", "a".repeat(40) + "!")), null);

        assertThat(a.errors()).extracting(FieldError::field).containsExactly("spec.v");
        assertThat(System.nanoTime() - start).as("bounded, not exponential").isLessThan(5_000_000_000L);
    }

    @Test
    void shouldStopRunningRulesPastTheBudgetOfOneWrite() throws Exception {
        StructuralSchema s = StructuralSchema.compile(Map.of("type", "object", "properties", Map.of("spec",
            Map.of("type", "object", "properties", Map.of("items", Map.of("type", "array", "items", Map.of("type", "integer",
                "x-kubernetes-validations", List.of(Map.of("rule", "self >= 0")))))))), "s", StructuralSchema.Limits.DEFAULTS);
        List<Object> many = new ArrayList<>();
        for (long i = 0; i < 5_000; i++) {
            many.add(i);
        }
        StructuralSchema.Admission a = s.admit(object(Map.of("items", many)), null);

        assertThat(a.errors()).extracting(FieldError::message).containsExactly(
            "Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run");
    }

    @Property(tries = 200)
    void admittingAnAdmittedObjectChangesNothing(@ForAll @IntRange(min = 0, max = 9) int replicas,
                                                @ForAll @StringLength(max = 12) String color) throws Exception {
        StructuralSchema s = widget();
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("size", "small");
        spec.put("replicas", (long) replicas);
        if (!color.isEmpty()) {
            spec.put("color", color);
        }
        spec.put("junk", true);
        StructuralSchema.Admission once = s.admit(object(spec), null);
        StructuralSchema.Admission twice = s.admit(once.object(), null);

        assertThat(twice.object()).isEqualTo(once.object());
        assertThat(twice.errors()).isEqualTo(once.errors());
        assertThat(spec(once)).doesNotContainKey("junk").containsKey("color");
    }
}
