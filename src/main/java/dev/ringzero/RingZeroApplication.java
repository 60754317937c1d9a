package dev.ringzero;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/** RingZero: gadget agents behind a policy kernel, workflow-first on Camunda 7. */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class RingZeroApplication {

    public static void main(String[] args) {
        SpringApplication.run(RingZeroApplication.class, args);
    }
}
