package dev.ringzero.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.function.Supplier;

import dev.ringzero.firmware.DeskBot;
import dev.ringzero.support.Agents;
import dev.ringzero.support.Api;
import dev.ringzero.support.Boards;
import dev.ringzero.support.PlatformTest;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** What Cockpit shows to whom: analysts read every run's history; owners only their own runs. */
class CockpitVisibilityTest extends PlatformTest {

    @LocalServerPort
    int port;
    @Autowired
    HistoryService history;
    @Autowired
    RuntimeService runtime;
    @Autowired
    IdentityService identity;

    @Test
    void anAnalystReadsRunHistoryByBusinessKeyAndOwnersSeeOnlyTheirOwnRuns() {
        Api alice = Api.at(port).newOwner("alice");
        Api bob = Api.at(port).newOwner("bob");
        String analyst = "analyst-" + System.nanoTime();
        assertThat(Api.at(port).basic("admin", ADMIN_PASSWORD).post("/api/v1/admin/accounts",
                "{\"id\":\"" + analyst + "\",\"password\":\"analyst-password\",\"role\":\"analyst\"}").status())
                .isEqualTo(201);
        try (Boards boards = new Boards()) {
            DeskBot bot = boards.deskBot(alice);
            String agent = Agents.create(alice, Agents.imuReadTwice(bot.gadgetId(), "imu", "parallel"));
            bot.setSilent(true); // the run waits for its first answer: a running instance, as in Cockpit
            String runId = Agents.runNow(alice, agent);

            List<HistoricProcessInstance> seenByAnalyst = as(analyst, () -> history.createHistoricProcessInstanceQuery()
                    .processDefinitionKey("agent-run").processInstanceBusinessKey(runId).list());
            long seenByAlice = as(alice.accountId(), () -> runtime.createProcessInstanceQuery()
                    .processInstanceBusinessKey(runId).count() + history.createHistoricProcessInstanceQuery()
                    .processInstanceBusinessKey(runId).count());
            long seenByBob = as(bob.accountId(), () -> runtime.createProcessInstanceQuery()
                    .processInstanceBusinessKey(runId).count());

            assertThat(seenByAnalyst).singleElement()
                    .satisfies(instance -> assertThat(instance.getBusinessKey()).isEqualTo(runId));
            assertThat(seenByAlice).isPositive();
            assertThat(seenByBob).isZero();
            assertThatExceptionOfType(AuthorizationException.class).isThrownBy(() -> as(analyst, () -> {
                runtime.deleteProcessInstance(seenByAnalyst.get(0).getId(), "an analyst may not");
                return null;
            }));
        }
    }

    private <T> T as(String userId, Supplier<T> action) {
        List<String> groups = identity.createGroupQuery().groupMember(userId).list().stream().map(g -> g.getId()).toList();
        identity.setAuthentication(userId, groups);
        try {
            return action.get();
        } finally {
            identity.clearAuthentication();
        }
    }
}
