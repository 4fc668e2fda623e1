package io.statesync.reconciler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class ArchitectureTest {
    /** The CEL adapter: compiling and running programs, and the cost of a rule, estimated and charged, over CEL's AST. */
    private static final String CEL_PROGRAMS = "io\\.statesync\\.reconciler\\.internal\\.Cel(Programs|CostEstimator|CostMeter)(\\$.*)?";
    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.statesync.reconciler");

    @Test
    void shouldNotDependOnKafkaOrAvro() {
        noClasses().that().resideInAPackage("io.statesync.reconciler..")
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka..", "org.apache.avro..",
                        "io.statesync.avro..")
                .check(classes);
    }

    @Test
    void shouldDependOnNothingButTheJdk() {
        noClasses().that().resideInAPackage("io.statesync.reconciler..")
                .and().haveNameNotMatching(CEL_PROGRAMS)
                .should().dependOnClassesThat().resideOutsideOfPackages("io.statesync.reconciler..", "java..")
                .check(classes);
    }

    /** CEL (and the Guava and protobuf types its API exposes) stays behind the adapter's classes, so the model's types stay plain. */
    @Test
    void shouldUseCelOnlyInCelPrograms() {
        noClasses().that().haveNameNotMatching(CEL_PROGRAMS)
                .should().dependOnClassesThat().resideInAnyPackage("dev.cel..", "com.google..")
                .check(classes);
    }

    @Test
    void shouldImportTheProductionClasses() {
        org.assertj.core.api.Assertions.assertThat(classes.contain(CorrectionPlanner.class)).isTrue();
    }
}
