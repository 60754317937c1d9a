package dev.ringzero.dispatch;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.gadgets.CommandSpec;
import dev.ringzero.kernel.ActionRequest;
import dev.ringzero.kernel.GadgetFacts;
import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.Priority;
import dev.ringzero.kernel.Subject;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustRules;
import dev.ringzero.policy.Movers;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The dispatch package's parts wired by hand, without Spring: the real kernel over facts kept in a
 * map, {@code rz_invocation} in an in-memory H2 database, and a link that records what it would
 * have published.
 */
final class DispatchFixture {

    static final String OWNER = "alice";
    static final String DESK = "desk-1";
    static final String ROVER = "rover-1";

    /** What the boards registered: a text to say, a distance to drive. */
    static final Map<String, CommandSpec> COMMANDS = Map.of(
            "speaker.say", new CommandSpec("speaker.say", "", Map.of(), Map.of("text",
                    new CommandSpec.ParamSpec("string", "what to say")), 4_000),
            "display.show", new CommandSpec("display.show", "", Map.of("text",
                    new CommandSpec.ParamSpec("string", "what to show")), Map.of(), 4_000),
            "chassis.drive", new CommandSpec("chassis.drive", "", Map.of(), Map.of("cm",
                    new CommandSpec.ParamSpec("integer", "how far")), 4_000),
            "chassis.stop", new CommandSpec("chassis.stop", "", Map.of(), Map.of(), 4_000));

    final ObjectMapper json = new ObjectMapper();
    final Clock clock = Clock.fixed(Instant.parse("2026-12-02T10:00:00Z"), ZoneOffset.UTC);
    final Map<String, GadgetFacts> gadgets = new HashMap<>();
    final List<Published> published = new CopyOnWriteArrayList<>();
    final JdbcDataSource dataSource;
    final JdbcClient jdbc;
    final Invocations invocations;
    final AwaitedAnswers awaited;
    final Movers movers = new Movers();
    final PolicyKernel kernel;

    record Published(String gadgetId, JsonNode envelope) {
    }

    DispatchFixture() {
        dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:dispatch-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        jdbc = JdbcClient.create(dataSource);
        jdbc.sql("create table rz_invocation (id varchar(36) primary key, owner_id varchar(64) not null, "
                + "gadget_id varchar(64) not null, command varchar(120) not null, params text not null, "
                + "origin varchar(32) not null, run_id varchar(36), outcome varchar(16) not null, "
                + "error_code varchar(64), result text, sent_at timestamp with time zone not null, "
                + "deadline timestamp with time zone not null, answered_at timestamp with time zone)").update();
        invocations = new Invocations(jdbc, json, dev.ringzero.SqlDialect.H2);
        awaited = new AwaitedAnswers(false, invocations);
        PolicyFacts facts = new PolicyFacts() {
            @Override
            public Optional<GadgetFacts> gadget(String gadgetId) {
                return Optional.ofNullable(gadgets.get(gadgetId));
            }

            @Override
            public Optional<dev.ringzero.kernel.AgentFacts> agent(String agentId) {
                return Optional.empty();
            }
        };
        kernel = new PolicyKernel(facts, TrustRules.NONE, TrustHistory.NONE);
        pair(DESK, "speaker.say", "display.show");
        pair(ROVER, "chassis.drive", "chassis.stop");
    }

    void pair(String gadgetId, String... commands) {
        gadgets.put(gadgetId, new GadgetFacts(gadgetId, OWNER, true, true, Set.of(commands), Optional.empty()));
    }

    void unpair(String gadgetId) {
        GadgetFacts was = gadgets.get(gadgetId);
        gadgets.put(gadgetId, new GadgetFacts(gadgetId, OWNER, false, was.online(), was.registeredCommands(),
                Optional.empty()));
    }

    Dispatcher dispatcher() {
        InvokeLink link = (gadgetId, envelope) -> {
            try {
                published.add(new Published(gadgetId, json.readTree(envelope)));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        };
        return new Dispatcher(kernel, (gadgetId, command) -> Optional.ofNullable(COMMANDS.get(command)), link,
                invocations, awaited, movers, json, clock);
    }

    ActionRequest byOwner(String gadgetId, String command, Map<String, Object> params) {
        return new ActionRequest(new Subject.Owner(OWNER), gadgetId, command, params, Priority.INTERACTION,
                clock.instant());
    }

    Optional<Invocation> recorded(String invocationId) {
        return invocations.find(invocationId);
    }
}
