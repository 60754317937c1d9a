package dev.ringzero.kernel;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A request to send one command to one gadget, decided at execution time (not only when the run was
 * admitted) so that a revocation between admission and dispatch still stops it. {@code params} are the
 * rendered parameters; the trust ladder's predicates match against them. {@code at} is the decision time.
 */
public record ActionRequest(Subject subject, String gadgetId, String command, Map<String, Object> params,
        Priority priority, Instant at) {

    public ActionRequest {
        Objects.requireNonNull(subject, "subject");
        Require.text(gadgetId, "gadgetId");
        Require.text(command, "command");
        params = Require.frozen(params);
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(at, "at");
    }
}
