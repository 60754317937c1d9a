package dev.ringzero.agents;

import java.util.HashSet;
import java.util.Optional;

import dev.ringzero.agents.definition.DefinitionLimits;
import dev.ringzero.agents.definition.DefinitionValidator;
import dev.ringzero.gadgets.GadgetDirectory;
import dev.ringzero.kernel.AgentFacts;
import dev.ringzero.policy.AgentFactsSource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Ring 1's wiring: the validator with the platform's configurable limits, and grants for the kernel. */
@Configuration
class AgentConfig {

    @Bean
    @ConfigurationProperties("ringzero.agents.limits")
    LimitsProperties definitionLimitsProperties() {
        return new LimitsProperties();
    }

    /** The operator's limits (definitions are validated against them; state writes are held to them). */
    @Bean
    DefinitionLimits definitionLimits(LimitsProperties limits) {
        return limits.toLimits();
    }

    @Bean
    DefinitionValidator definitionValidator(GadgetDirectory gadgets, DefinitionLimits limits) {
        return new DefinitionValidator(gadgets, limits);
    }

    /** The current grants of an agent as the kernel sees them, read at decision time. */
    @Bean
    AgentFactsSource agentFacts(AgentStore store, AgentService agents) {
        return agentId -> store.find(agentId).map(agent -> {
            var spec = agents.spec(agent.id(), agent.currentRevision());
            return new AgentFacts(agent.id(), agent.ownerId(), agent.enabled() && !agent.deleted(),
                    agent.currentRevision(), new HashSet<>(spec.allow().commands()),
                    new HashSet<>(spec.allow().intents()), new HashSet<>(spec.allow().tools()),
                    spec.allow().physical());
        });
    }

    /** {@code ringzero.agents.limits.*}; unset values keep the platform defaults. */
    static class LimitsProperties {
        private final DefinitionLimits defaults = DefinitionLimits.defaults();
        private Integer maxRunsPerHour;
        private Integer maxCooldownSeconds;
        private Integer maxRunSeconds;
        private Integer maxToolCallsPerRun;
        private Integer maxTokensPerRun;
        private Integer maxStateBytes;

        DefinitionLimits toLimits() {
            return new DefinitionLimits(
                    Optional.ofNullable(maxRunsPerHour).orElse(defaults.maxRunsPerHour()),
                    Optional.ofNullable(maxCooldownSeconds).orElse(defaults.maxCooldownSeconds()),
                    Optional.ofNullable(maxRunSeconds).orElse(defaults.maxRunSeconds()),
                    Optional.ofNullable(maxToolCallsPerRun).orElse(defaults.maxToolCallsPerRun()),
                    Optional.ofNullable(maxTokensPerRun).orElse(defaults.maxTokensPerRun()),
                    Optional.ofNullable(maxStateBytes).orElse(defaults.maxStateBytes()));
        }

        public void setMaxRunsPerHour(Integer value) {
            this.maxRunsPerHour = value;
        }

        public void setMaxCooldownSeconds(Integer value) {
            this.maxCooldownSeconds = value;
        }

        public void setMaxRunSeconds(Integer value) {
            this.maxRunSeconds = value;
        }

        public void setMaxToolCallsPerRun(Integer value) {
            this.maxToolCallsPerRun = value;
        }

        public void setMaxTokensPerRun(Integer value) {
            this.maxTokensPerRun = value;
        }

        public void setMaxStateBytes(Integer value) {
            this.maxStateBytes = value;
        }
    }
}
