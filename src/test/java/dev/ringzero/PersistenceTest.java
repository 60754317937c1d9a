package dev.ringzero;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.ringzero.support.Api;
import dev.ringzero.support.PlatformTest;
import org.camunda.bpm.engine.HistoryService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The production shape really is PostgreSQL: Liquibase ran, and the engine persisted there. */
class PersistenceTest extends PlatformTest {

    @LocalServerPort
    int port;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    HistoryService history;

    @Test
    void liquibaseCreatedTheApplicationTablesOnPostgresql() {
        String product = jdbc.sql("select version()").query(String.class).single();
        List<String> changeSets = jdbc.sql("select id from databasechangelog").query(String.class).list();

        assertThat(product).startsWith("PostgreSQL");
        assertThat(changeSets).contains("001-accounts", "002-gates");
    }

    @Test
    void theEnginePersistsProcessInstancesInPostgresql() {
        Api alice = Api.at(port).newOwner("alice");
        String gateId = alice.post("/api/v1/gates", "{\"intent\":\"inbox.post\",\"payload\":{\"text\":\"x\"}}")
                .json().path("id").asText();

        Integer rows = jdbc.sql("select count(*) from act_ru_execution where business_key_ = ?").param(gateId)
                .query(Integer.class).single();

        assertThat(rows).isEqualTo(1);
        assertThat(history.createHistoricProcessInstanceQuery().processInstanceBusinessKey(gateId).count())
                .isEqualTo(1);
    }
}
