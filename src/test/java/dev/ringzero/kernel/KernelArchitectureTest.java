package dev.ringzero.kernel;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Timer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The kernel is plain Java: the JDK and itself, and no threads or clocks of its own. */
@AnalyzeClasses(packages = "dev.ringzero.kernel", importOptions = ImportOption.DoNotIncludeTests.class)
class KernelArchitectureTest {

    @ArchTest
    static final ArchRule kernelDependsOnlyOnTheJdkAndItself = classes().that().resideInAPackage("dev.ringzero.kernel..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "dev.ringzero.kernel..");

    @ArchTest
    static final ArchRule kernelStartsNoThreadsAndReadsNoClock = noClasses().that().resideInAPackage("dev.ringzero.kernel..")
            .should().dependOnClassesThat().belongToAnyOf(Thread.class, ExecutorService.class, Executors.class,
                    ScheduledExecutorService.class, Timer.class, java.time.Clock.class)
            .orShould().callMethod(java.time.Instant.class, "now");
}
