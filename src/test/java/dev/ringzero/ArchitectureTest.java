package dev.ringzero;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.ringzero.dispatch.Dispatcher;
import dev.ringzero.dispatch.InvokeLink;

/**
 * The house rules of the whole platform, each enforced here (docs/architecture.md draws them):
 * ring 0's decision point stays plain Java, rings 1 and 3 never touch a device's transport, no
 * package depends on itself through others, only the workflow package knows the engine, only the
 * web package speaks HTTP's problem types, and a command reaches a device one way.
 */
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
                    "io.moquette..", "dev.ringzero.gateway..");

    /** Ring 3 acts only behind gates: it never reaches devices, runs or the engine directly. */
    @ArchTest
    static final ArchRule ringThreeActsOnlyThroughGates = noClasses().that().resideInAPackage("dev.ringzero.ecosystem..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.ringzero.agents..", "dev.ringzero.gateway..",
                    "dev.ringzero.dispatch..", "org.camunda..");

    /** Every package, the root included, is a slice; zero cycles among them, none frozen. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.(ringzero..)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyWorkflowKnowsTheEngine = noClasses().that()
            .resideOutsideOfPackage("dev.ringzero.workflow..")
            .should().dependOnClassesThat().resideInAPackage("org.camunda..")
            .because("the engine is behind ports owned by their callers; workflow implements them");

    @ArchTest
    static final ArchRule nothingOutsideTheWebLayerUsesWebTypes = noClasses().that()
            .resideOutsideOfPackage("dev.ringzero.web..")
            .should().dependOnClassesThat().resideInAPackage("dev.ringzero.web..")
            .because("services throw Refusal; the web layer's one advice turns it into problem+json");

    @ArchTest
    static final ArchRule onlyTheDispatcherSendsCommands = noClasses().that().areNotAssignableTo(Dispatcher.class)
            .should().callMethod(InvokeLink.class, "invoke", String.class, byte[].class)
            .because("the dispatcher is ring 0's only way to a device: kernel verdict, record, then publish");

    @ArchTest
    static final ArchRule onlyTheDispatchersLinkPublishesInvocations = noClasses().that()
            .doNotHaveFullyQualifiedName("dev.ringzero.gateway.MqttInvokeLink")
            .should().callMethod("dev.ringzero.gateway.LinkPublisher", "invoke", String.class.getName(),
                    byte[].class.getName())
            .because("link.invoke leaves through the dispatcher's InvokeLink and nothing else");
}
