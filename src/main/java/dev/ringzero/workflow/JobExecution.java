package dev.ringzero.workflow;

import java.util.Optional;

import org.camunda.bpm.engine.impl.jobexecutor.JobExecutor;
import org.camunda.bpm.engine.impl.jobexecutor.NotifyAcquisitionRejectedJobsHandler;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.camunda.bpm.spring.boot.starter.property.JobExecutionProperty;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskExecutor;

/**
 * The engine's job executor: the Camunda starter's (it backs off when this bean exists), set up
 * from {@code camunda.bpm.job-execution} as the starter sets up its own, but a
 * {@link LockReleasingJobExecutor}, which gives up the lock of a job whose failure the database
 * could not take.
 */
@Configuration
class JobExecution {

    @Bean
    @ConditionalOnProperty(prefix = "camunda.bpm.job-execution", name = "enabled", havingValue = "true",
            matchIfMissing = true)
    static JobExecutor jobExecutor(@Qualifier("camundaTaskExecutor") TaskExecutor taskExecutor,
            CamundaBpmProperties properties) {
        LockReleasingJobExecutor executor = new LockReleasingJobExecutor();
        executor.setTaskExecutor(taskExecutor);
        executor.setRejectedJobsHandler(new NotifyAcquisitionRejectedJobsHandler());
        JobExecutionProperty settings = properties.getJobExecution();
        Optional.ofNullable(settings.getLockTimeInMillis()).ifPresent(executor::setLockTimeInMillis);
        Optional.ofNullable(settings.getMaxJobsPerAcquisition()).ifPresent(executor::setMaxJobsPerAcquisition);
        Optional.ofNullable(settings.getWaitTimeInMillis()).ifPresent(executor::setWaitTimeInMillis);
        Optional.ofNullable(settings.getMaxWait()).ifPresent(executor::setMaxWait);
        Optional.ofNullable(settings.getBackoffTimeInMillis()).ifPresent(executor::setBackoffTimeInMillis);
        Optional.ofNullable(settings.getMaxBackoff()).ifPresent(executor::setMaxBackoff);
        Optional.ofNullable(settings.getBackoffDecreaseThreshold()).ifPresent(executor::setBackoffDecreaseThreshold);
        Optional.ofNullable(settings.getWaitIncreaseFactor()).ifPresent(executor::setWaitIncreaseFactor);
        return executor;
    }
}
