package dev.ringzero.policy;

import dev.ringzero.kernel.PolicyFacts;
import dev.ringzero.kernel.PolicyKernel;
import dev.ringzero.kernel.TrustHistory;
import dev.ringzero.kernel.TrustRules;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the plain-Java kernel to its ports. This package holds only adapters; the kernel decides. */
@Configuration
class KernelConfig {

    @Bean
    PolicyKernel policyKernel(PolicyFacts facts, TrustRules trustRules, TrustHistory trustHistory) {
        return new PolicyKernel(facts, trustRules, trustHistory);
    }
}
