package dev.ringzero.gates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;

import org.junit.jupiter.api.Test;

class RunActionRecordsTest {

    private final DeskFixture desk = new DeskFixture();
    private final RunActionRecords underTest = new RunActionRecords(desk.audit, desk.journal,
            new LogRows(desk.jdbc, dev.ringzero.SqlDialect.H2));

    private List<Audit.Entry> audited() {
        return desk.audit.ofOwner(desk.owner, 10);
    }

    @Test
    void aCommandTheKernelRefusedIsOnTheRecordAsTheKernels() {
        underTest.refused(desk.owner, desk.agent, desk.run, "speaker.say", "quiet_hours");

        assertThat(audited()).extracting(Audit.Entry::disposition, Audit.Entry::actor, Audit.Entry::detail,
                Audit.Entry::gateId).containsExactly(tuple("refused", "kernel", "quiet_hours", null));
        assertThat(desk.timeline()).extracting(Journal.Entry::actor, Journal.Entry::kind, Journal.Entry::text)
                .containsExactly(tuple("kernel", "action.refused", "Refused speaker.say (quiet_hours)"));
    }

    @Test
    void aMoverBusyRefusalIsTheMoverLeasesNotTheKernels() {
        underTest.refused(desk.owner, desk.agent, desk.run, "chassis.drive", "mover_busy");

        assertThat(audited()).extracting(Audit.Entry::actor).containsExactly("system:mover-lease");
        assertThat(desk.timeline()).extracting(Journal.Entry::actor).containsExactly("system");
    }

    @Test
    void aCommandTheDefaultLetThroughIsAuditedAsAutoExecutedByTheDefault() {
        underTest.autoExecuted(desk.owner, desk.agent, desk.run, "speaker.say", null, "completed");

        assertThat(audited()).extracting(Audit.Entry::disposition, Audit.Entry::actor, Audit.Entry::ruleId,
                Audit.Entry::detail).containsExactly(tuple("auto-executed", "default", null, "completed"));
        assertThat(desk.timeline()).extracting(Journal.Entry::kind, Journal.Entry::text)
                .containsExactly(tuple("action.auto", "speaker.say ran without asking (completed)"));
    }

    @Test
    void aCommandATrustRuleLetThroughNamesTheRule() {
        underTest.autoExecuted(desk.owner, desk.agent, desk.run, "chassis.drive", "r-3", "completed");

        assertThat(audited()).extracting(Audit.Entry::actor, Audit.Entry::ruleId)
                .containsExactly(tuple("trust-rule:r-3", "r-3"));
    }
}
