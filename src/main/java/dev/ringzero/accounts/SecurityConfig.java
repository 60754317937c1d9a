package dev.ringzero.accounts;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.engine.rest.security.auth.impl.HttpBasicAuthenticationProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Wires the API credential filter, the engine REST login, and {@link Caller} arguments. */
@Configuration
class SecurityConfig implements WebMvcConfigurer {

    @Bean
    FilterRegistrationBean<ApiAuthenticationFilter> apiAuthentication(AccountService accounts,
            CamundaIdentity camunda, ObjectMapper json,
            @Value("${ringzero.api.max-body-bytes:262144}") long maxBodyBytes) {
        var registration = new FilterRegistrationBean<>(
                new ApiAuthenticationFilter(accounts, camunda, json, maxBodyBytes));
        registration.setUrlPatterns(List.of("/api/*"));
        registration.setName("ringzeroApiAuthentication");
        registration.setOrder(10);
        return registration;
    }

    /** The engine REST API answers only to a Camunda login (HTTP Basic), with its authorizations. */
    @Bean
    FilterRegistrationBean<ProcessEngineAuthenticationFilter> engineRestAuthentication() {
        var registration = new FilterRegistrationBean<>(new ProcessEngineAuthenticationFilter());
        registration.setUrlPatterns(List.of("/engine-rest/*"));
        registration.addInitParameter("authentication-provider", HttpBasicAuthenticationProvider.class.getName());
        registration.setName("camundaEngineRestAuthentication");
        registration.setOrder(11);
        return registration;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new HandlerMethodArgumentResolver() {
            @Override
            public boolean supportsParameter(MethodParameter parameter) {
                return parameter.getParameterType() == Caller.class;
            }

            @Override
            public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer container,
                    NativeWebRequest request, WebDataBinderFactory binders) {
                Object caller = request.getAttribute(ApiAuthenticationFilter.CALLER, RequestAttributes.SCOPE_REQUEST);
                if (caller == null) {
                    throw new IllegalStateException("no caller: is the route outside /api/?");
                }
                return caller;
            }
        });
    }
}
