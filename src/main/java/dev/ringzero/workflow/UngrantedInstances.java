package dev.ringzero.workflow;

import java.util.ArrayList;
import java.util.List;

import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.db.entitymanager.DbEntityManager;
import org.camunda.bpm.engine.impl.interceptor.Session;
import org.camunda.bpm.engine.impl.interceptor.SessionFactory;
import org.camunda.bpm.engine.impl.persistence.entity.AuthorizationEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionManager;
import org.springframework.stereotype.Component;

/**
 * An instance that starts and ends in one command, and was granted to nobody there, ends without
 * the engine's delete of its grants. With authorizations on, the engine deletes every grant on a
 * process instance as it ends (one statement, whether or not there is a row). An instance's id is
 * a UUID made in the command that starts it, so a grant on it can only come from that command,
 * and such a grant is still in the command's entity cache: an instance born and ended here with
 * none there has nothing to delete. This is an {@code agent-run} whose last command detached (the
 * common event's run: it waits nowhere, so {@code runWaits} grants nothing) or that was not
 * admitted; an instance that waited, or was granted where it started, has its grants deleted as
 * before.
 */
@Component
class UngrantedInstances extends AbstractProcessEnginePlugin {

    @Override
    public void preInit(ProcessEngineConfigurationImpl configuration) {
        List<SessionFactory> factories = new ArrayList<>();
        if (configuration.getCustomSessionFactories() != null) {
            factories.addAll(configuration.getCustomSessionFactories());
        }
        // added after the engine's own, so this one is the ExecutionManager every command opens
        factories.add(new SessionFactory() {
            @Override
            public Class<?> getSessionType() {
                return ExecutionManager.class;
            }

            @Override
            public Session openSession() {
                return new Executions();
            }
        });
        configuration.setCustomSessionFactories(factories);
    }

    /** The engine's execution manager, minus the grants' delete for an instance that has none. */
    static final class Executions extends ExecutionManager {

        @Override
        public void deleteExecution(ExecutionEntity execution) {
            if (execution.isProcessInstanceExecution() && ungrantedSinceBirth(execution)) {
                getDbEntityManager().delete(execution);
                return;
            }
            super.deleteExecution(execution);
        }

        /** Inserted in this command (not yet written), with no grant on it made here. */
        private boolean ungrantedSinceBirth(ExecutionEntity instance) {
            DbEntityManager entities = getDbEntityManager();
            if (!entities.getDbEntityCache().isTransient(instance)) {
                return false;
            }
            String id = instance.getProcessInstanceId();
            int type = Resources.PROCESS_INSTANCE.resourceType();
            return entities.getCachedEntitiesByType(AuthorizationEntity.class).stream()
                    .noneMatch(grant -> grant.getResourceType() == type && id.equals(grant.getResourceId()));
        }
    }
}
