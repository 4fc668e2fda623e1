package io.statesync.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.statesync.rest.ApiError;
import org.junit.jupiter.api.Test;

class SelectableFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<ApiError.Cause> causesOf(String selectableFields) throws Exception {
        JsonNode version = JSON.readTree("""
            {"name": "v1", "selectableFields": %s, "schema": {"openAPIV3Schema": {"type": "object", "properties": {
              "spec": {"type": "object", "properties": {"color": {"type": "string"}, "count": {"type": "integer"},
                "on": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}}}
            """.formatted(selectableFields));
        List<ApiError.Cause> causes = new ArrayList<>();
        SelectableFields.validate(causes, version, "spec.versions[0]");
        return causes;
    }

    @Test
    void shouldAcceptSimplePathsToStringIntegerBooleanAndMapValues() throws Exception {
        assertThat(causesOf("""
            [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.count"}, {"jsonPath": ".spec.on"}, {"jsonPath": ".spec.labels.team"}]
            """)).isEmpty();
    }

    @Test
    void shouldRefuseArrayNotationMetadataNonScalarsAndUnknownFieldsEachAtItsIndex() throws Exception {
        List<ApiError.Cause> causes = causesOf("""
            [{"jsonPath": ".spec.tags[0]"}, {"jsonPath": ".metadata.name"}, {"jsonPath": ".spec.tags"},
             {"jsonPath": ".spec.nothing"}, {"jsonPath": ""}]
            """);

        assertThat(causes).extracting(ApiError.Cause::field).containsExactly(
            "spec.versions[0].selectableFields[0].jsonPath", "spec.versions[0].selectableFields[1].jsonPath",
            "spec.versions[0].selectableFields[2].jsonPath", "spec.versions[0].selectableFields[3].jsonPath",
            "spec.versions[0].selectableFields[4].jsonPath");
        assertThat(causes.get(1).message()).contains("must not point to metadata fields");
        assertThat(causes.get(2).message()).contains("must point to a field of type string, boolean or integer");
        assertThat(causes.get(4).reason()).isEqualTo("FieldValueRequired");
    }

    @Test
    void shouldRefuseMoreThanEightFieldsAndADuplicate() throws Exception {
        List<ApiError.Cause> causes = causesOf("[" + String.join(", ",
            java.util.Collections.nCopies(9, "{\"jsonPath\": \".spec.color\"}")) + "]");

        assertThat(causes.get(0).reason()).isEqualTo("FieldValueTooMany");
        assertThat(causes).extracting(ApiError.Cause::reason).contains("FieldValueDuplicate");
    }

    @Test
    void shouldParseOnlyDottedFieldPaths() {
        assertThat(SelectableFields.path(".spec.color")).containsExactly("spec", "color");
        assertThat(SelectableFields.path("spec.color")).isNull();
        assertThat(SelectableFields.path(".spec..color")).isNull();
        assertThat(SelectableFields.path(".spec['a']")).isNull();
    }
}
