package dev.ringzero;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** Ring 0's decision point stays plain Java: testable alone, free of engine and transport types. */
@AnalyzeClasses(packages = "dev.ringzero", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule kernelIsPlainJava = noClasses().that().resideInAPackage("dev.ringzero.kernel..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "org.camunda..", "org.springframework..", "org.eclipse.paho..", "jakarta.persistence..",
                    "com.fasterxml.jackson..", "java.sql..", "io.moquette..");

    @ArchTest
    static final ArchRule ringOneNeverTouchesTheBroker = noClasses().that().resideInAPackage("dev.ringzero.agents..")
            .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.paho..", "org.springframework.integration..",
                    "io.moquette..");

    /** Ring 3 acts only behind gates: it never reaches devices, runs or the engine directly. */
    @ArchTest
    static final ArchRule ringThreeActsOnlyThroughGates = noClasses().that().resideInAPackage("dev.ringzero.ecosystem..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.ringzero.agents..", "dev.ringzero.gateway..",
                    "org.camunda..");
}
