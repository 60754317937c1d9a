package dev.ringzero.workflow;

import org.camunda.bpm.engine.AuthorizationService;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.authorization.Authorization;
import org.camunda.bpm.engine.authorization.Groups;
import org.camunda.bpm.engine.authorization.Permission;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resource;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.engine.identity.User;
import dev.ringzero.accounts.Caller;
import dev.ringzero.accounts.LoginDirectory;
import org.springframework.stereotype.Component;

/**
 * Mirrors RingZero accounts into Camunda's identity service so the same id and password log
 * in to Tasklist and Cockpit, and sets the authorizations that make each person see only
 * what is theirs. Camunda's authorization checks apply to the webapps and the engine REST
 * API; the platform's own service calls run unauthenticated and enforce ownership itself.
 */
@Component
public class CamundaIdentity implements LoginDirectory {

    public static final String OWNERS = "ringzero-owners";
    public static final String ANALYSTS = "analysts";

    private final IdentityService identity;
    private final AuthorizationService authorizations;

    CamundaIdentity(IdentityService identity, AuthorizationService authorizations) {
        this.identity = identity;
        this.authorizations = authorizations;
    }

    @Override
    public boolean userExists(String id) {
        return identity.createUserQuery().userId(id).count() > 0;
    }

    @Override
    public boolean checkPassword(String id, String password) {
        return identity.checkPassword(id, password);
    }

    @Override
    public void setPassword(String id, String password) {
        User user = identity.createUserQuery().userId(id).singleResult();
        user.setPassword(password);
        identity.saveUser(user);
        identity.unlockUser(id);
    }

    @Override
    public java.util.Optional<String> webappUser(jakarta.servlet.http.HttpSession session) {
        if (session == null) {
            return java.util.Optional.empty();
        }
        org.camunda.bpm.webapp.impl.security.auth.Authentications logins =
                org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil.getAuthsFromSession(session);
        org.camunda.bpm.webapp.impl.security.auth.Authentication login = logins == null ? null
                : logins.getAuthenticationForProcessEngine(org.camunda.bpm.engine.ProcessEngines.NAME_DEFAULT);
        return login == null || login.getIdentityId() == null ? java.util.Optional.empty()
                : java.util.Optional.of(login.getIdentityId());
    }

    @Override
    public boolean isAdministrator(String id) {
        return isMember(id, Groups.CAMUNDA_ADMIN);
    }

    @Override
    public void createUser(String id, String password, String displayName, Caller.Role role) {
        createUser(id, password, displayName, switch (role) {
            case ADMIN -> Groups.CAMUNDA_ADMIN;
            case ANALYST -> ANALYSTS;
            case OWNER -> OWNERS;
            case GATEWAY -> throw new IllegalArgumentException("a gateway credential has no login");
        });
    }

    private boolean isMember(String userId, String groupId) {
        return identity.createGroupQuery().groupMember(userId).groupId(groupId).count() > 0;
    }

    private void createUser(String id, String password, String displayName, String groupId) {
        User user = identity.newUser(id);
        user.setFirstName(displayName);
        user.setLastName("");
        user.setPassword(password);
        identity.saveUser(user);
        identity.createMembership(id, groupId);
    }

    @Override
    public void ensureGroups() {
        ensureGroup(Groups.CAMUNDA_ADMIN, "RingZero administrators", Groups.GROUP_TYPE_SYSTEM);
        for (Resource resource : Resources.values()) {
            grantGroup(Groups.CAMUNDA_ADMIN, resource, Authorization.ANY, Permissions.ALL);
        }
        ensureGroup(OWNERS, "Gadget owners", Groups.GROUP_TYPE_WORKFLOW);
        grantGroup(OWNERS, Resources.APPLICATION, "tasklist", Permissions.ACCESS);
        grantGroup(OWNERS, Resources.APPLICATION, "cockpit", Permissions.ACCESS);
        // Owners see the models; instances only where a per-instance grant names them.
        grantGroup(OWNERS, Resources.PROCESS_DEFINITION, Authorization.ANY, Permissions.READ);
        grantGroup(OWNERS, Resources.FILTER, Authorization.ANY, Permissions.READ);

        ensureGroup(ANALYSTS, "Run history analysts", Groups.GROUP_TYPE_WORKFLOW);
        grantGroup(ANALYSTS, Resources.APPLICATION, "cockpit", Permissions.ACCESS);
        grantGroup(ANALYSTS, Resources.PROCESS_DEFINITION, Authorization.ANY, Permissions.READ,
                Permissions.READ_HISTORY, Permissions.READ_INSTANCE);
        grantGroup(ANALYSTS, Resources.PROCESS_INSTANCE, Authorization.ANY, Permissions.READ);
        grantGroup(ANALYSTS, Resources.DEPLOYMENT, Authorization.ANY, Permissions.READ);
    }

    /**
     * Lets an owner read one process instance that runs on their behalf, while it runs (Cockpit)
     * and afterwards (its history, with historic instance permissions enabled).
     */
    public void grantInstance(String userId, String processInstanceId) {
        grantRunning(userId, processInstanceId);
        Authorization history = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
        history.setUserId(userId);
        history.setResource(Resources.HISTORIC_PROCESS_INSTANCE);
        history.setResourceId(processInstanceId);
        history.addPermission(org.camunda.bpm.engine.authorization.HistoricProcessInstancePermissions.READ);
        authorizations.saveAuthorization(history);
    }

    /**
     * Lets an owner read one process instance while it runs (Cockpit); the engine deletes the
     * grant when the instance ends. For agent runs, whose finished record the owner reads over
     * REST ({@code /api/v1/runs/{id}}): one row instead of two, and no history lookup per run.
     */
    public void grantRunning(String userId, String processInstanceId) {
        Authorization runtime = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
        runtime.setUserId(userId);
        runtime.setResource(Resources.PROCESS_INSTANCE);
        runtime.setResourceId(processInstanceId);
        runtime.addPermission(Permissions.READ);
        authorizations.saveAuthorization(runtime);
    }

    private void ensureGroup(String id, String name, String type) {
        if (identity.createGroupQuery().groupId(id).count() == 0) {
            Group group = identity.newGroup(id);
            group.setName(name);
            group.setType(type);
            identity.saveGroup(group);
        }
    }

    private void grantGroup(String groupId, Resource resource, String resourceId, Permission... permissions) {
        boolean present = authorizations.createAuthorizationQuery().groupIdIn(groupId)
                .resourceType(resource).resourceId(resourceId).count() > 0;
        if (present) {
            return;
        }
        Authorization auth = authorizations.createNewAuthorization(Authorization.AUTH_TYPE_GRANT);
        auth.setGroupId(groupId);
        auth.setResource(resource);
        auth.setResourceId(resourceId);
        for (Permission permission : permissions) {
            auth.addPermission(permission);
        }
        authorizations.saveAuthorization(auth);
    }
}
