package io.statesync.reconciler.schema.internal;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.statesync.reconciler.ValidationRules;

/**
 * One node of a structural schema, compiled: its type and the keywords that check a value of it. Fields a schema
 * leaves out are null (or empty, or false).
 */
public record SchemaNode(
    String type,
    boolean nullable,
    Map<String, SchemaNode> properties,
    SchemaNode additionalProperties,
    boolean additionalPropertiesAllowed,
    SchemaNode items,
    Set<String> required,
    List<Object> enumValues,
    BigDecimal minimum,
    boolean exclusiveMinimum,
    BigDecimal maximum,
    boolean exclusiveMaximum,
    BigDecimal multipleOf,
    Pattern pattern,
    String patternText,
    Long minLength,
    Long maxLength,
    Long minItems,
    Long maxItems,
    Long minProperties,
    Long maxProperties,
    String format,
    Object defaultValue,
    boolean preserveUnknownFields,
    boolean intOrString,
    boolean embeddedResource,
    String listType,
    List<String> listMapKeys,
    ValidationRules rules,
    List<String> ruleReasons,
    List<String> ruleFieldPaths) {

    /** The schema of {@code name} in an object of this node: its property, else its additionalProperties. */
    public SchemaNode property(String name) {
        SchemaNode p = properties.get(name);
        return p != null ? p : additionalProperties;
    }
}
