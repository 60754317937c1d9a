package dev.ringzero.workflow;

import java.util.List;

import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.engine.rest.security.auth.impl.HttpBasicAuthenticationProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The engine REST API answers only to a Camunda login (HTTP Basic), with its authorizations, and
 * never tells a caller what exists beyond what they may see.
 */
@Configuration
class EngineRestSecurity {

    @Bean
    FilterRegistrationBean<ProcessEngineAuthenticationFilter> engineRestAuthentication() {
        var registration = new FilterRegistrationBean<>(new ProcessEngineAuthenticationFilter());
        registration.setUrlPatterns(List.of("/engine-rest/*"));
        registration.addInitParameter("authentication-provider", HttpBasicAuthenticationProvider.class.getName());
        registration.setName("camundaEngineRestAuthentication");
        registration.setOrder(11);
        return registration;
    }

    /**
     * Inside the login: another person's resource and a missing one answer the same 404; a
     * completion that lost a race answers 409.
     */
    @Bean
    FilterRegistrationBean<EngineRestErrors> engineRestErrors(HistoryService history, IdentityService identity) {
        var registration = new FilterRegistrationBean<>(new EngineRestErrors(EngineRestErrors.inHistory(history,
                identity)));
        registration.setUrlPatterns(List.of("/engine-rest/*"));
        registration.setName("ringzeroEngineRestErrors");
        registration.setOrder(12);
        return registration;
    }
}
