package io.statesync.architecture;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules that keep the modules apart, checked over the main classes of every module at once (test classes and
 * test-jars are left out: tests may reach further).
 */
class ArchitectureTest {

    private static final Set<String> PRODUCT = Set.of("schemas", "reconciler", "serde", "engine", "cli", "server",
        "connectors", "embedded", "dist", "kube");

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.statesync");
    }

    @Test
    void shouldReadTheClassesOfEveryModule() {
        Set<String> modules = new TreeSet<>();
        main.forEach(c -> modules.add(ModuleOf.of(c)));
        assertThat(modules).containsAll(PRODUCT).contains("bench", "reliability").noneMatch(m -> m.startsWith("unknown"));
    }

    @Test
    void shouldNotReachIntoAnotherPackageTreesInternals() {
        classes().should(notDependOnForeignInternals())
            .because("an internal package is its tree's implementation, free to change; other trees use its public classes")
            .check(main);
    }

    @Test
    void serverShouldNotDependOnTheKubernetesApi() {
        classes().that(inModule("server")).should(notDependOnModules("kube"))
            .because("the server finds the Kubernetes API on the class path (RestExtension) and runs without it")
            .check(main);
    }

    @Test
    void engineShouldNotDependOnTheServerOrTheCli() {
        classes().that(inModule("engine")).should(notDependOnModules("server", "cli"))
            .because("the engine is the Streams application alone: REST, watch and commands are built on it, not into it")
            .check(main);
    }

    @Test
    void serverLayersShouldPointDownward() {
        noClasses().that().resideInAPackage("io.statesync.view..")
            .should().dependOnClassesThat().resideInAnyPackage("io.statesync.rest..", "io.statesync.app..")
            .because("the resource view is a read model any front end can serve; REST is one of them")
            .check(main);
        noClasses().that().resideInAPackage("io.statesync.rest..")
            .should().dependOnClassesThat().resideInAPackage("io.statesync.app..")
            .because("the app wires REST to the engine; REST taking the app back would make the two one piece")
            .check(main);
    }

    @Test
    void engineInternalsShouldNotDependOnTheClassThatBuildsTheTopology() {
        noClasses().that(inModule("engine")).and().resideInAPackage("..internal..")
            .should().dependOnClassesThat().haveFullyQualifiedName("io.statesync.topology.StatesyncTopology")
            .because("the builder wires the processors; they read the names they need from TopologyNames, so that"
                + " the builder stays the one thing that knows the whole topology")
            .check(main);
    }

    @Test
    void garbageCollectionShouldKeepItsPublicAndInternalSplit() {
        classes().that().resideInAPackage("io.statesync.gc.internal")
            .should().onlyHaveDependentClassesThat().resideInAnyPackage("io.statesync.gc", "io.statesync.gc.internal")
            .because("the engine reaches garbage collection through GarbageCollection, CollectedTask and"
                + " DependentsIndex, so that the collector's implementation can change without the reconciler's")
            .check(main);
        noClasses().that().resideInAPackage("io.statesync.gc..")
            .should().dependOnClassesThat().resideInAPackage("io.statesync.topology.internal..")
            .because("the collector asks the task for reconciles through CollectedTask, never the engine's internals")
            .check(main);
    }

    @Test
    void serdeShouldNotDependOnKafkaStreams() {
        noClasses().that(inModule("serde")).should().dependOnClassesThat().resideInAPackage("org.apache.kafka.streams..")
            .because("agents and Connect plugins embed the serde, and must not carry Kafka Streams for it")
            .check(main);
    }

    @Test
    void cliShouldNotDependOnKafkaStreamsOrTheEngine() {
        noClasses().that(inModule("cli")).should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka.streams..",
                "io.statesync.topology..", "io.javalin..")
            .because("the client commands talk HTTP to an instance and must run without the pipeline on the class path")
            .check(main);
    }

    @Test
    void shouldNotSplitAPackageAcrossModules() {
        Map<String, Set<String>> modulesByPackage = new TreeMap<>();
        main.forEach(c -> modulesByPackage.computeIfAbsent(c.getPackageName(), p -> new TreeSet<>()).add(ModuleOf.of(c)));
        modulesByPackage.values().removeIf(modules -> modules.size() == 1);
        assertThat(modulesByPackage)
            .as("a package lives in one module, so that package-private access and the internal rule mean what they say")
            .isEmpty();
    }

    @Test
    void benchmarksAndSoaksShouldReachTheProductOnlyThroughPublicClasses() {
        classes().that(inModule("bench")).or(inModule("reliability")).should(reachProductOnlyThroughPublicApi())
            .because("benchmarks and soaks measure the product as its users run it, so the product stays free to change"
                + " its implementation")
            .check(main);
    }

    @Test
    void onlyTheDecoderShouldMutateAValue() {
        noClasses().that().doNotHaveFullyQualifiedName("io.statesync.topology.internal.CompactValues")
            .and().doNotHaveFullyQualifiedName("io.statesync.avro.Value")
            .should().callMethodWhere(valueMutator())
            .because("the engine and serde share Value instances between records and state, and compare and convert"
                + " them by identity; only the decoder, before a Value is shared, may change one")
            .check(main);
    }

    private static DescribedPredicate<JavaMethodCall> valueMutator() {
        return DescribedPredicate.describe("a setter of io.statesync.avro.Value", call ->
            call.getTargetOwner().getFullName().equals("io.statesync.avro.Value")
                && (call.getName().startsWith("set") || call.getName().equals("put")));
    }

    private static DescribedPredicate<JavaClass> inModule(String module) {
        return DescribedPredicate.describe("in module " + module, c -> module.equals(ModuleOf.of(c)));
    }

    private static ArchCondition<JavaClass> notDependOnForeignInternals() {
        return new ArchCondition<>("not depend on another package tree's internal classes") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                String tree = ModuleOf.treeOf(c.getPackageName());
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    String target = d.getTargetClass().getPackageName();
                    if (target.startsWith("io.statesync.") && ModuleOf.isInternal(target)
                        && !ModuleOf.treeOf(target).equals(tree)) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> notDependOnModules(String... modules) {
        Set<String> forbidden = Set.of(modules);
        return new ArchCondition<>("not depend on classes of " + forbidden) {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    if (d.getTargetClass().getPackageName().startsWith("io.statesync.")
                        && forbidden.contains(ModuleOf.of(d.getTargetClass()))) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> reachProductOnlyThroughPublicApi() {
        return new ArchCondition<>("use only public, non-internal classes of the product's modules") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass();
                    if (!PRODUCT.contains(ModuleOf.of(target))) {
                        continue;
                    }
                    if (ModuleOf.isInternal(target.getPackageName()) || !target.getModifiers().contains(JavaModifier.PUBLIC)) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
            }
        };
    }
}
