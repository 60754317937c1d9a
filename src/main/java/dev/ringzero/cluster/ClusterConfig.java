package dev.ringzero.cluster;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The partition keeper, on a node of a cluster only ({@code ringzero.cluster.enabled}). */
@Configuration
class ClusterConfig {

    @Bean
    @ConditionalOnProperty(name = "ringzero.cluster.enabled", havingValue = "true")
    PartitionKeeper partitionKeeper(JdbcClient jdbc, ClusterSettings settings, PartitionOwner owner, Clock clock,
            @Value("${ringzero.mqtt.node-id:1}") String node) {
        return new PartitionKeeper(jdbc, settings, owner, clock, node);
    }
}
