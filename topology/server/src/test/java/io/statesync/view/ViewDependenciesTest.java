package io.statesync.view;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server's layers: the resource view depends on neither the REST server nor the app, REST not on the app, and no
 * package tree reaches into another's {@code internal}.
 */
class ViewDependenciesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages("io.statesync.view", "io.statesync.rest", "io.statesync.app");

    @Test
    void shouldKeepTheViewBelowRestAndTheApp() {
        noClasses().that().resideInAPackage("io.statesync.view..")
            .should().dependOnClassesThat().resideInAnyPackage("io.statesync.rest..", "io.statesync.app..")
            .check(CLASSES);
    }

    @Test
    void shouldKeepRestBelowTheApp() {
        noClasses().that().resideInAPackage("io.statesync.rest..")
            .should().dependOnClassesThat().resideInAPackage("io.statesync.app..")
            .check(CLASSES);
    }

    @Test
    void shouldReachAnotherTreeOnlyThroughItsPublicPackages() {
        for (String tree : new String[] {"view", "rest", "app"}) {
            noClasses().that().resideOutsideOfPackage("io.statesync." + tree + "..")
                .should().dependOnClassesThat().resideInAPackage("io.statesync." + tree + ".internal..")
                .check(CLASSES);
        }
    }

    @Test
    void shouldImportTheProductionClasses() {
        assertThat(CLASSES.contain(ResourceView.class)).isTrue();
    }
}
