package dev.ringzero.firmware;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a command answers in {@code link.result}: a payload, or an error with one of
 * the contract's codes. Sealed so every publisher handles both shapes.
 */
public sealed interface CommandOutcome permits CommandOutcome.Done, CommandOutcome.Failed {

    // error codes of the link contract (docs/contracts.md section 1)
    String INVALID_PARAMS = "invalid_params";
    String UNSUPPORTED = "unsupported";
    String BUSY = "busy";
    String SPEAKER_OFF = "speaker_off";
    String UNAVAILABLE = "unavailable";
    String HANDLER_FAILED = "handler_failed";
    String EXPIRED = "expired";

    boolean ok();

    static Done ok(Map<String, ?> payload) {
        return new Done(payload == null ? null : new LinkedHashMap<String, Object>(payload));
    }

    static Failed error(String code, String message) {
        return new Failed(code, message);
    }

    /** {@code ok:true}. The payload keeps insertion order and may hold nulls (e.g. {@code "current":null}). */
    record Done(Map<String, Object> payload) implements CommandOutcome {
        public Done {
            payload = payload == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(payload));
        }

        @Override
        public boolean ok() {
            return true;
        }
    }

    /** {@code ok:false}. */
    record Failed(String code, String message) implements CommandOutcome {
        public Failed {
            Objects.requireNonNull(code, "code");
            message = message == null ? code : message;
        }

        @Override
        public boolean ok() {
            return false;
        }
    }
}
